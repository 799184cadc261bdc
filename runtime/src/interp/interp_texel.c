/* SPDX-License-Identifier: MIT */
/*
 * Texels for the CPU interpreter: the formats of shaderbridge/resources.h
 * decoded to and encoded from four 32-bit lanes by D3D11's conversion rules,
 * which Vulkan's agree with on the values D3D defines (missing channels read
 * as 0 and alpha as 1; unorm = x / (2^n - 1); snorm = max(x / (2^(n-1) - 1),
 * -1); float -> unorm/snorm clamps, then rounds to nearest even; sRGB uses the
 * exact curve; half and R11G11B10 floats keep denormals, infinities and NaNs
 * and round to nearest even), the half-float conversions the
 * ALU shares, and the texel addressing of the resources.h memory layout
 * (levels, then layers, then depth slices and rows).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

enum texel_kind {
    KIND_F32, KIND_U32, KIND_S32, KIND_F16, KIND_UNORM, KIND_SNORM, KIND_UINT, KIND_SINT,
    KIND_SRGB,  /* unorm8 with the sRGB curve on rgb, alpha linear */
    KIND_UF,    /* unsigned small float: 5-bit exponent, bits - 5 mantissa bits */
    KIND_BC,    /* a 4x4 block for interp_bc.c: `bgra` holds the sb_interp_bc_format, bits[0] the sRGB flag */
    KIND_STENCIL, /* D24S8 memory seen through its stencil: (0, the high byte, 0, 1) as uints */
};

/* Channels are bit fields packed from the texel's low bits upward (DXGI's layout, little
 * endian); `bits` is each field's width; `bgra` stores blue first, so memory field i holds
 * channel 2 - i for the first three. Fields past the last channel (D24's stencil) are kept. */
static const struct {
    uint8_t channels, kind, bgra, bits[4];
} texel_formats[SB_RT_FORMAT_COUNT] = {
    [SB_RT_FORMAT_R32_FLOAT] = { 1, KIND_F32, 0, { 32 } },
    [SB_RT_FORMAT_R32_UINT] = { 1, KIND_U32, 0, { 32 } },
    [SB_RT_FORMAT_R32_SINT] = { 1, KIND_S32, 0, { 32 } },
    [SB_RT_FORMAT_R32G32_FLOAT] = { 2, KIND_F32, 0, { 32, 32 } },
    [SB_RT_FORMAT_R32G32_UINT] = { 2, KIND_U32, 0, { 32, 32 } },
    [SB_RT_FORMAT_R32G32_SINT] = { 2, KIND_S32, 0, { 32, 32 } },
    [SB_RT_FORMAT_R32G32B32A32_FLOAT] = { 4, KIND_F32, 0, { 32, 32, 32, 32 } },
    [SB_RT_FORMAT_R32G32B32A32_UINT] = { 4, KIND_U32, 0, { 32, 32, 32, 32 } },
    [SB_RT_FORMAT_R32G32B32A32_SINT] = { 4, KIND_S32, 0, { 32, 32, 32, 32 } },
    [SB_RT_FORMAT_R16G16B16A16_FLOAT] = { 4, KIND_F16, 0, { 16, 16, 16, 16 } },
    [SB_RT_FORMAT_R8G8B8A8_UNORM] = { 4, KIND_UNORM, 0, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_D32_FLOAT] = { 1, KIND_F32, 0, { 32 } }, /* depth: read as R32_FLOAT */
    [SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB] = { 4, KIND_SRGB, 0, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_B8G8R8A8_UNORM] = { 4, KIND_UNORM, 1, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB] = { 4, KIND_SRGB, 1, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_R10G10B10A2_UNORM] = { 4, KIND_UNORM, 0, { 10, 10, 10, 2 } },
    [SB_RT_FORMAT_R10G10B10A2_UINT] = { 4, KIND_UINT, 0, { 10, 10, 10, 2 } },
    [SB_RT_FORMAT_R11G11B10_FLOAT] = { 3, KIND_UF, 0, { 11, 11, 10 } },
    [SB_RT_FORMAT_R8_UNORM] = { 1, KIND_UNORM, 0, { 8 } },
    [SB_RT_FORMAT_R8_SNORM] = { 1, KIND_SNORM, 0, { 8 } },
    [SB_RT_FORMAT_R8_UINT] = { 1, KIND_UINT, 0, { 8 } },
    [SB_RT_FORMAT_R8_SINT] = { 1, KIND_SINT, 0, { 8 } },
    [SB_RT_FORMAT_R8G8_UNORM] = { 2, KIND_UNORM, 0, { 8, 8 } },
    [SB_RT_FORMAT_R8G8_SNORM] = { 2, KIND_SNORM, 0, { 8, 8 } },
    [SB_RT_FORMAT_R8G8_UINT] = { 2, KIND_UINT, 0, { 8, 8 } },
    [SB_RT_FORMAT_R8G8_SINT] = { 2, KIND_SINT, 0, { 8, 8 } },
    [SB_RT_FORMAT_R8G8B8A8_SNORM] = { 4, KIND_SNORM, 0, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_R8G8B8A8_UINT] = { 4, KIND_UINT, 0, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_R8G8B8A8_SINT] = { 4, KIND_SINT, 0, { 8, 8, 8, 8 } },
    [SB_RT_FORMAT_R16_UNORM] = { 1, KIND_UNORM, 0, { 16 } },
    [SB_RT_FORMAT_R16_SNORM] = { 1, KIND_SNORM, 0, { 16 } },
    [SB_RT_FORMAT_R16_UINT] = { 1, KIND_UINT, 0, { 16 } },
    [SB_RT_FORMAT_R16_SINT] = { 1, KIND_SINT, 0, { 16 } },
    [SB_RT_FORMAT_R16_FLOAT] = { 1, KIND_F16, 0, { 16 } },
    [SB_RT_FORMAT_R16G16_UNORM] = { 2, KIND_UNORM, 0, { 16, 16 } },
    [SB_RT_FORMAT_R16G16_SNORM] = { 2, KIND_SNORM, 0, { 16, 16 } },
    [SB_RT_FORMAT_R16G16_UINT] = { 2, KIND_UINT, 0, { 16, 16 } },
    [SB_RT_FORMAT_R16G16_SINT] = { 2, KIND_SINT, 0, { 16, 16 } },
    [SB_RT_FORMAT_R16G16_FLOAT] = { 2, KIND_F16, 0, { 16, 16 } },
    [SB_RT_FORMAT_R16G16B16A16_UNORM] = { 4, KIND_UNORM, 0, { 16, 16, 16, 16 } },
    [SB_RT_FORMAT_R16G16B16A16_SNORM] = { 4, KIND_SNORM, 0, { 16, 16, 16, 16 } },
    [SB_RT_FORMAT_R16G16B16A16_UINT] = { 4, KIND_UINT, 0, { 16, 16, 16, 16 } },
    [SB_RT_FORMAT_R16G16B16A16_SINT] = { 4, KIND_SINT, 0, { 16, 16, 16, 16 } },
    [SB_RT_FORMAT_D16_UNORM] = { 1, KIND_UNORM, 0, { 16 } },       /* depth: read as R16_UNORM */
    [SB_RT_FORMAT_D24_UNORM_S8_UINT] = { 1, KIND_UNORM, 0, { 24 } }, /* depth as red; stencil kept */
    [SB_RT_FORMAT_BC1_UNORM] = { 4, KIND_BC, SB_INTERP_BC1, { 0 } },
    [SB_RT_FORMAT_BC1_UNORM_SRGB] = { 4, KIND_BC, SB_INTERP_BC1, { 1 } },
    [SB_RT_FORMAT_BC2_UNORM] = { 4, KIND_BC, SB_INTERP_BC2, { 0 } },
    [SB_RT_FORMAT_BC2_UNORM_SRGB] = { 4, KIND_BC, SB_INTERP_BC2, { 1 } },
    [SB_RT_FORMAT_BC3_UNORM] = { 4, KIND_BC, SB_INTERP_BC3, { 0 } },
    [SB_RT_FORMAT_BC3_UNORM_SRGB] = { 4, KIND_BC, SB_INTERP_BC3, { 1 } },
    [SB_RT_FORMAT_BC4_UNORM] = { 1, KIND_BC, SB_INTERP_BC4_UNORM, { 0 } },
    [SB_RT_FORMAT_BC4_SNORM] = { 1, KIND_BC, SB_INTERP_BC4_SNORM, { 0 } },
    [SB_RT_FORMAT_BC5_UNORM] = { 2, KIND_BC, SB_INTERP_BC5_UNORM, { 0 } },
    [SB_RT_FORMAT_BC5_SNORM] = { 2, KIND_BC, SB_INTERP_BC5_SNORM, { 0 } },
    [SB_RT_FORMAT_BC6H_UF16] = { 3, KIND_BC, SB_INTERP_BC6H_UF16, { 0 } },
    [SB_RT_FORMAT_BC6H_SF16] = { 3, KIND_BC, SB_INTERP_BC6H_SF16, { 0 } },
    [SB_RT_FORMAT_BC7_UNORM] = { 4, KIND_BC, SB_INTERP_BC7, { 0 } },
    [SB_RT_FORMAT_BC7_UNORM_SRGB] = { 4, KIND_BC, SB_INTERP_BC7, { 1 } },
    [SB_RT_FORMAT_X24_TYPELESS_G8_UINT] = { 2, KIND_STENCIL, 0, { 24, 8 } },
};

bool sb_interp_format_known(uint32_t format)
{
    return format < SB_RT_FORMAT_COUNT && texel_formats[format].channels != 0;
}

float sb_interp_format_step(uint32_t format)
{
    if (!sb_interp_format_known(format) || format == SB_RT_FORMAT_D16_UNORM ||
        format == SB_RT_FORMAT_D24_UNORM_S8_UINT)
        return 0.0f; /* depth formats are filtered as the device's depth, not compared here */
    uint32_t bits = texel_formats[format].bits[0];
    switch (texel_formats[format].kind) {
    case KIND_UNORM: case KIND_SRGB: return 1.0f / (float)((1ull << bits) - 1);
    case KIND_SNORM: return 1.0f / (float)((1ull << (bits - 1)) - 1);
    default: return 0.0f;
    }
}

bool sb_interp_format_srgb(uint32_t format)
{
    return sb_interp_format_known(format) && texel_formats[format].kind == KIND_SRGB;
}

bool sb_interp_format_block(uint32_t format)
{
    return sb_interp_format_known(format) && texel_formats[format].kind == KIND_BC;
}

bool sb_interp_format_words(uint32_t format)
{
    return sb_interp_format_known(format) && texel_formats[format].bits[0] == 32;
}

uint32_t sb_interp_value_type(const struct sb_ir_resource *decl)
{
    switch (decl->return_type[0]) {
    case 3: return SB_IR_TYPE_INT;  /* SINT (../shared/docs/sm4-tokens.md §8.4) */
    case 4: return SB_IR_TYPE_UINT; /* UINT */
    default: return SB_IR_TYPE_FLOAT;
    }
}

uint32_t sb_interp_half_from_float(uint32_t f)
{
    uint32_t sign = (f >> 16) & 0x8000u, e = (f >> 23) & 0xFFu, m = f & 0x7FFFFFu;
    if (e == 0xFF)
        return sign | 0x7C00u | (m ? 0x200u | (m >> 13) : 0);
    int32_t he = (int32_t)e - 127 + 15;
    if (he >= 31)
        return sign | 0x7C00u;
    if (he <= 0) {
        if (he < -10)
            return sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - he), half = m >> shift, rest = m & ((1u << shift) - 1),
                 mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return sign | half;
    }
    uint32_t half = ((uint32_t)he << 10) | (m >> 13), rest = m & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++; /* a carry into the exponent (up to infinity) is the right answer */
    return sign | half;
}

uint32_t sb_interp_float_from_half(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F)
        return sign | 0x7F800000u | (m << 13);
    if (e)
        return sign | ((e + 112) << 23) | (m << 13);
    float f = (float)m * (1.0f / 16777216.0f); /* m * 2^-24, exact */
    uint32_t u;
    memcpy(&u, &f, 4);
    return sign | u;
}

/* Bit field [offset, offset + bits) of a little-endian texel, bits <= 32. */
static uint32_t field_get(const uint8_t *texel, uint32_t offset, uint32_t bits)
{
    uint64_t v = 0;
    uint32_t first = offset / 8, last = (offset + bits - 1) / 8;
    for (uint32_t b = last + 1; b-- > first;)
        v = (v << 8) | texel[b];
    v >>= offset % 8;
    return (uint32_t)(bits == 32 ? v : v & ((1ull << bits) - 1));
}

static void field_set(uint8_t *texel, uint32_t offset, uint32_t bits, uint32_t value)
{
    for (uint32_t i = 0; i < bits;) {
        uint32_t byte = (offset + i) / 8, shift = (offset + i) % 8, take = 8 - shift;
        take = take < bits - i ? take : bits - i;
        uint32_t mask = ((1u << take) - 1) << shift;
        texel[byte] = (uint8_t)((texel[byte] & ~mask) | (((value >> i) << shift) & mask));
        i += take;
    }
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Unsigned small float (R11G11B10): 5-bit exponent biased by 15 and `m_bits` mantissa bits, no
 * sign; exponent 31 is infinity (mantissa 0) or NaN, exponent 0 the denormals m * 2^(-14 - m_bits). */
static uint32_t float_from_small(uint32_t v, uint32_t m_bits)
{
    uint32_t e = v >> m_bits, m = v & ((1u << m_bits) - 1);
    if (e == 31)
        return 0x7F800000u | (m << (23 - m_bits));
    if (e)
        return ((e + 112) << 23) | (m << (23 - m_bits));
    return float_bits(ldexpf((float)m, -14 - (int)m_bits)); /* exact: m < 2^6 */
}

/* Float -> small float, D3D's rules: round to nearest even, negatives (and -0, -inf) become 0,
 * NaN stays NaN, values past the largest finite one round to infinity. */
static uint32_t small_from_float(uint32_t f, uint32_t m_bits)
{
    uint32_t e = (f >> 23) & 0xFFu, m = f & 0x7FFFFFu, inf = 31u << m_bits;
    if (e == 0xFF && m)
        return inf | 1u << (m_bits - 1);
    if (f >> 31)
        return 0;
    if (e == 0xFF)
        return inf;
    int32_t se = (int32_t)e - 127 + 15;
    uint32_t shift, value;
    if (se <= 0) {
        if (se < -(int32_t)m_bits)
            return 0; /* below half the smallest denormal */
        m |= 0x800000u;
        shift = (uint32_t)(23 - (int32_t)m_bits + 1 - se);
        value = m >> shift;
    } else {
        shift = 23 - m_bits;
        value = ((uint32_t)se << m_bits) | (m >> shift);
    }
    uint32_t rest = m & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (value & 1)))
        value++; /* a carry into the exponent is right, up to infinity */
    return value > inf ? inf : value;
}

/* The sRGB curve, exactly (in double, then rounded once to float). */
static float srgb_to_linear(uint32_t v)
{
    double c = (double)v / 255.0;
    return (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

static float linear_to_srgb(float f)
{
    double c = f;
    return (float)(c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055);
}

/* Float -> n-bit normalized integer: clamp (NaN -> 0), scale, round to nearest even. The
 * product is a float32 product, as the previous unorm8 code and lavapipe compute it (D3D
 * allows 0.6 of the integer's last place, so this rounding of the product is within it). */
static uint32_t unorm_from_float(float f, uint32_t bits)
{
    f = f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
    return (uint32_t)nearbyintf(f * (float)((1ull << bits) - 1));
}

static uint32_t snorm_from_float(float f, uint32_t bits)
{
    f = f > -1.0f ? (f < 1.0f ? f : 1.0f) : (f <= -1.0f ? -1.0f : 0.0f);
    int32_t v = (int32_t)nearbyintf(f * (float)((1u << (bits - 1)) - 1));
    return (uint32_t)v & (uint32_t)((1ull << bits) - 1);
}

/* Memory field of channel c. */
static uint32_t field_of(uint32_t format, uint32_t c)
{
    return texel_formats[format].bgra && c < 3 ? 2 - c : c;
}

static uint32_t field_offset(uint32_t format, uint32_t field)
{
    uint32_t offset = 0;
    for (uint32_t i = 0; i < field; i++)
        offset += texel_formats[format].bits[i];
    return offset;
}

void sb_interp_texel_decode(uint32_t format, const uint8_t *texel, uint32_t out[4])
{
    if (sb_interp_format_block(format)) {
        sb_interp_texel_read(format, texel, 0, 0, out); /* a block's first texel */
        return;
    }
    bool known = sb_interp_format_known(format);
    uint32_t kind = known ? texel_formats[format].kind : KIND_F32;
    uint32_t channels = known ? texel_formats[format].channels : 0;
    bool integer = kind == KIND_U32 || kind == KIND_S32 || kind == KIND_UINT || kind == KIND_SINT ||
                   kind == KIND_STENCIL;
    out[0] = out[1] = out[2] = 0;
    out[3] = integer ? 1u : 0x3F800000u;
    if (kind == KIND_STENCIL) {
        out[1] = texel[3]; /* the X24 part is no channel: D3D's view has no red to read */
        return;
    }
    for (uint32_t c = 0; c < channels; c++) {
        uint32_t field = field_of(format, c), bits = texel_formats[format].bits[field];
        uint32_t v = field_get(texel, field_offset(format, field), bits), top = 1u << (bits - 1);
        switch (kind) {
        case KIND_F16: out[c] = sb_interp_float_from_half(v); break;
        case KIND_UF: out[c] = float_from_small(v, bits - 5); break;
        case KIND_UNORM: out[c] = float_bits((float)v / (float)((1ull << bits) - 1)); break;
        case KIND_SRGB:
            out[c] = float_bits(c < 3 ? srgb_to_linear(v) : (float)v / 255.0f);
            break;
        case KIND_SNORM: {
            /* both the most negative value and the one above it read as -1.0 */
            float f = (float)((int32_t)(v ^ top) - (int32_t)top) / (float)(top - 1);
            out[c] = float_bits(f < -1.0f ? -1.0f : f);
            break;
        }
        case KIND_SINT: out[c] = bits == 32 ? v : (v ^ top) - top; break;
        default: out[c] = v; break; /* 32-bit words and uint fields */
        }
    }
}

void sb_interp_texel_read(uint32_t format, const uint8_t *unit, int32_t x, int32_t y, uint32_t out[4])
{
    if (!sb_interp_format_block(format)) {
        sb_interp_texel_decode(format, unit, out);
        return;
    }
    /* The whole block is decoded for one texel: simple, and blocks are small next to the
     * shader work around a fetch. The address routine checked the block lies in the data. */
    uint32_t texels[16][4];
    size_t bytes = sb_rt_format_size((enum sb_rt_format)format);
    if (!sb_interp_bc_decode(texel_formats[format].bgra, unit, bytes, texels)) {
        out[0] = out[1] = out[2] = 0;
        out[3] = 0x3F800000u;
        return;
    }
    memcpy(out, texels[((uint32_t)y & 3u) * 4 + ((uint32_t)x & 3u)], 16);
    if (texel_formats[format].bits[0]) {
        /* sRGB after decoding, as D3D and Vulkan specify. Interpolated BC1-3/BC7 values are
         * not all k/255, so the curve is applied to the decoded float, not to an 8-bit code. */
        for (uint32_t c = 0; c < 3; c++) {
            float f;
            memcpy(&f, &out[c], 4);
            double v = f;
            f = (float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
            out[c] = float_bits(f);
        }
    }
}

bool sb_interp_texel_pack(enum sb_rt_format format, const uint32_t lanes[4], void *texel)
{
    if (!sb_interp_format_known(format) || sb_interp_format_block(format) || format == SB_RT_FORMAT_D32_FLOAT ||
        format == SB_RT_FORMAT_D16_UNORM || format == SB_RT_FORMAT_D24_UNORM_S8_UINT ||
        format == SB_RT_FORMAT_X24_TYPELESS_G8_UINT)
        return false;
    memset(texel, 0, sb_rt_format_size(format)); /* field_set keeps the bits around a field */
    sb_interp_texel_encode(format, lanes, texel);
    return true;
}

bool sb_interp_texel_unpack(enum sb_rt_format format, const void *texel, uint32_t lanes[4])
{
    if (!sb_interp_format_known(format) || sb_interp_format_block(format))
        return false;
    sb_interp_texel_decode(format, texel, lanes);
    return true;
}

void sb_interp_texel_encode(uint32_t format, const uint32_t in[4], uint8_t *texel)
{
    if (sb_interp_format_block(format) || format == SB_RT_FORMAT_X24_TYPELESS_G8_UINT)
        return; /* read-only formats: binding checks refuse them as UAVs */
    bool known = sb_interp_format_known(format);
    uint32_t kind = known ? texel_formats[format].kind : KIND_F32;
    uint32_t channels = known ? texel_formats[format].channels : 0;
    for (uint32_t c = 0; c < channels; c++) {
        uint32_t field = field_of(format, c), bits = texel_formats[format].bits[field], v = in[c];
        uint32_t max = bits == 32 ? UINT32_MAX : (uint32_t)((1ull << bits) - 1);
        float f;
        memcpy(&f, &in[c], 4);
        switch (kind) {
        case KIND_F16: v = sb_interp_half_from_float(in[c]); break;
        case KIND_UF: v = small_from_float(in[c], bits - 5); break;
        case KIND_UNORM: v = unorm_from_float(f, bits); break;
        case KIND_SRGB: v = unorm_from_float(c < 3 && f > 0.0f ? linear_to_srgb(f < 1.0f ? f : 1.0f) : f, 8); break;
        case KIND_SNORM: v = snorm_from_float(f, bits); break;
        /* D3D clamps integers to a narrower format's range rather than wrapping them */
        case KIND_UINT: v = in[c] > max ? max : in[c]; break;
        case KIND_SINT: {
            int32_t s = (int32_t)in[c], hi = (int32_t)(max >> 1), lo = -hi - 1;
            v = (uint32_t)(s > hi ? hi : s < lo ? lo : s) & max;
            break;
        }
        default: break;
        }
        field_set(texel, field_offset(format, field), bits, v);
    }
}

uint32_t sb_interp_level_extent(const struct sb_rt_resource *r, uint32_t axis, uint32_t mip)
{
    uint32_t size = axis == 0 ? r->width : axis == 1 ? r->height : r->depth;
    size = mip < 32 ? size >> mip : 0;
    return size ? size : 1;
}

/* Storage units (texels, or blocks of `block` texels) along an axis of `n` texels. */
static uint32_t units(uint32_t n, uint32_t block)
{
    return block > 1 ? n / block + (n % block != 0) : n;
}

uint8_t *sb_interp_texel_address(const struct sb_rt_resource *r, int32_t x, int32_t y, int32_t z, int32_t layer,
                                 int32_t mip)
{
    uint32_t levels = r->mip_levels ? r->mip_levels : 1, layers = r->layers ? r->layers : 1;
    /* `texel` is one storage unit: a texel, or for BC formats the 4x4 block holding (x, y). */
    uint64_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
    uint32_t block = sb_rt_format_block_extent((enum sb_rt_format)r->format);
    if (x < 0 || y < 0 || z < 0 || layer < 0 || mip < 0 || (uint32_t)mip >= levels || (uint32_t)layer >= layers ||
        !texel || !r->data)
        return NULL;
    uint64_t offset = 0;
    for (uint32_t l = 0; l < (uint32_t)mip; l++)
        offset += (uint64_t)units(sb_interp_level_extent(r, 0, l), block) *
                  units(sb_interp_level_extent(r, 1, l), block) * sb_interp_level_extent(r, 2, l) * layers * texel;
    uint64_t w = sb_interp_level_extent(r, 0, (uint32_t)mip), h = sb_interp_level_extent(r, 1, (uint32_t)mip),
             d = sb_interp_level_extent(r, 2, (uint32_t)mip);
    if ((uint64_t)x >= w || (uint64_t)y >= h || (uint64_t)z >= d)
        return NULL;
    /* From here on x, y, w and h count storage units (blocks for BC). */
    w = units((uint32_t)w, block);
    h = units((uint32_t)h, block);
    x /= (int32_t)block;
    y /= (int32_t)block;
    offset += ((((uint64_t)layer * d + (uint64_t)z) * h + (uint64_t)y) * w + (uint64_t)x) * texel;
    if (offset + texel > r->size)
        return NULL;
    return (uint8_t *)r->data + offset;
}

uint8_t *sb_interp_sample_address(const struct sb_rt_resource *r, int32_t x, int32_t y, int32_t layer,
                                  int32_t sample)
{
    uint64_t layers = r->layers ? r->layers : 1, samples = r->sample_count ? r->sample_count : 1;
    uint64_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
    if (x < 0 || y < 0 || layer < 0 || sample < 0 || (uint32_t)x >= r->width || (uint32_t)y >= r->height ||
        (uint64_t)layer >= layers || (uint64_t)sample >= samples || !texel || !r->data ||
        sb_interp_format_block(r->format))
        return NULL;
    uint64_t offset = ((((uint64_t)layer * r->height + (uint64_t)y) * r->width + (uint64_t)x) * samples +
                       (uint64_t)sample) * texel; /* each factor < 2^32 and texel <= 16: no overflow */
    if (offset + texel > r->size)
        return NULL;
    return (uint8_t *)r->data + offset;
}
