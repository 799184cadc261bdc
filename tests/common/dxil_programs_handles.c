/* SPDX-License-Identifier: MIT */
/*
 * The resource-handle programs of dxil_programs_handles.h, written as dxc lays
 * them out: createHandle's index is the register number (lower bound + array
 * index, ../shared/docs/dxil.md §5.1), SM 6.6 handles come from
 * createHandleFromBinding with the range's ResBind constant and pass through
 * annotateHandle with the ResourceProperties of §5.2 before use.
 */
#include "dxil_programs_handles.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_CBUFFER_LOAD_LEGACY = 59, OP_BUFFER_LOAD = 68,
       OP_BUFFER_STORE = 69, OP_GROUP_ID = 94, OP_FLATTENED_THREAD_ID = 96, OP_ANNOTATE_HANDLE = 216,
       OP_CREATE_HANDLE_FROM_BINDING = 217, OP_CREATE_HANDLE_FROM_HEAP = 218 };
/* ResourceProperties dword 0 (§5.2): kind | IsUAV (bit 12). */
enum { PROPS_RAW_UAV = 0x100B, PROPS_RAW_SRV = 11, PROPS_TEXTURE2D_UAV = 0x1002,
       PROPS_CBUFFER = 13 };

static uint32_t handle_type(struct dxil_module *m)
{
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    return dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
}

/* createHandle(57, class, rangeId, register `index` (a value), nonUniform). */
static uint32_t create_handle(struct dxil_module *m, uint8_t cls, int32_t range, uint32_t index,
                              bool non_uniform)
{
    uint32_t args[4] = { dm_i8(m, (int8_t)cls), dm_i32(m, range), index, dm_i1(m, non_uniform) };
    return dm_dxop(m, "dx.op.createHandle", handle_type(m), DM_ATTR_READONLY, OP_CREATE_HANDLE,
                   args, 4);
}

/* annotateHandle(216, createHandleFromBinding(217, ResBind{lower, upper, space, class}, index,
 * false), ResourceProperties{props0, props1}). */
static uint32_t handle_from_binding(struct dxil_module *m, const int32_t bind[3], uint8_t cls,
                                    uint32_t index, int32_t props0, int32_t props1)
{
    uint32_t i32 = dm_type_int(m, 32), i8 = dm_type_int(m, 8);
    uint32_t bind_members[4] = { i32, i32, i32, i8 }, props_members[2] = { i32, i32 };
    uint32_t resbind = dm_type_struct(m, "dx.types.ResBind", bind_members, 4);
    uint32_t properties = dm_type_struct(m, "dx.types.ResourceProperties", props_members, 2);
    uint32_t bind_fields[4] = { dm_i32(m, bind[0]), dm_i32(m, bind[1]), dm_i32(m, bind[2]),
                                dm_i8(m, (int8_t)cls) };
    uint32_t args[3] = { dm_const_struct(m, resbind, bind_fields, 4), index, dm_i1(m, false) };
    uint32_t h = dm_dxop(m, "dx.op.createHandleFromBinding", handle_type(m), DM_ATTR_READNONE,
                         OP_CREATE_HANDLE_FROM_BINDING, args, 3);
    uint32_t prop_fields[2] = { dm_i32(m, props0), dm_i32(m, props1) };
    uint32_t annotate[2] = { h, dm_const_struct(m, properties, prop_fields, 2) };
    return dm_dxop(m, "dx.op.annotateHandle", handle_type(m), DM_ATTR_READNONE,
                   OP_ANNOTATE_HANDLE, annotate, 2);
}

/* bufferStore.i32(69, handle, byte offset, undef, value, undef x3, mask x). */
static void store_u32(struct dxil_module *m, uint32_t handle, uint32_t offset, uint32_t value)
{
    uint32_t u = dm_undef(m, dm_type_int(m, 32));
    uint32_t args[8] = { handle, offset, u, value, u, u, u, dm_i8(m, 1) };
    dm_dxop(m, "dx.op.bufferStore.i32", dm_type_void(m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            args, 8);
}

/* bufferLoad.i32(68, handle, byte offset, undef), member x of the ResRet. */
static uint32_t load_u32(struct dxil_module *m, uint32_t handle, uint32_t offset)
{
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t members[5] = { i32, i32, i32, i32, i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.i32", members, 5);
    uint32_t args[3] = { handle, offset, dm_undef(m, i32) };
    uint32_t ret = dm_dxop(m, "dx.op.bufferLoad.i32", resret, DM_ATTR_READONLY, OP_BUFFER_LOAD,
                           args, 3);
    return dm_extractvalue(m, ret, 0);
}

/* cbufferLoadLegacy.i32(59, handle, row) -> CBufRet.i32. */
static uint32_t cbuffer_row(struct dxil_module *m, uint32_t handle, int32_t row)
{
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t members[4] = { i32, i32, i32, i32 };
    uint32_t cbufret = dm_type_struct(m, "dx.types.CBufRet.i32", members, 4);
    uint32_t args[2] = { handle, dm_i32(m, row) };
    return dm_dxop(m, "dx.op.cbufferLoadLegacy.i32", cbufret, DM_ATTR_READONLY,
                   OP_CBUFFER_LOAD_LEGACY, args, 2);
}

static uint32_t flattened_thread(struct dxil_module *m)
{
    return dm_dxop(m, "dx.op.flattenedThreadIdInGroup.i32", dm_type_int(m, 32), DM_ATTR_READNONE,
                   OP_FLATTENED_THREAD_ID, NULL, 0);
}

static bool finish(struct dxil_module *m, uint32_t entry, uint8_t sm_minor, uint32_t threads_x,
                   const struct dxil_resource *resources, unsigned count, struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = sm_minor, .entry = entry,
        .entry_name = "main", .num_threads = { threads_x, 1, 1 },
        .shader_flags = DXIL_FLAG_RAW_BUFFERS, .resources = resources, .resource_count = count,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/* RWByteAddressBuffer bufs[4] : register(u2); cbuffer cb0 : register(b0) { uint k; } */
static const struct dxil_resource ARRAY_U2_CB0[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .lower_bound = 2,
      .range_size = 4, .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
      .type_name = "cb0" },
};

/*
 * RWByteAddressBuffer bufs[4] : register(u2);
 * cbuffer cb0 : register(b0) { uint k; };
 * [numthreads(4, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * {
 *     bufs[1].Store(t * 4, t + 100);
 *     uint j = (t + k) & 3;
 *     bufs[NonUniformResourceIndex(j)].Store(16 + t * 4,
 *                                            bufs[NonUniformResourceIndex(j)].Load(32) + t);
 * }
 */
bool dxil_program_cs_handle_array(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t cb0 = create_handle(m, DXIL_CLASS_CBV, 0, dm_i32(m, 0), false);
    uint32_t second = create_handle(m, DXIL_CLASS_UAV, 0, dm_i32(m, 3), false);
    uint32_t t = flattened_thread(m);
    uint32_t k = dm_extractvalue(m, cbuffer_row(m, cb0, 0), 0);
    uint32_t t4 = dm_binop(m, DM_SHL, t, dm_i32(m, 2), DM_FLAGS_NONE);
    store_u32(m, second, t4, dm_binop(m, DM_ADD, t, dm_i32(m, 100), DM_FLAGS_NONE));
    uint32_t j = dm_binop(m, DM_AND, dm_binop(m, DM_ADD, t, k, DM_FLAGS_NONE), dm_i32(m, 3),
                          DM_FLAGS_NONE);
    uint32_t reg = dm_binop(m, DM_ADD, j, dm_i32(m, 2), DM_FLAGS_NONE);
    uint32_t chosen = create_handle(m, DXIL_CLASS_UAV, 0, reg, true);
    uint32_t loaded = load_u32(m, chosen, dm_i32(m, 32));
    store_u32(m, chosen, dm_binop(m, DM_ADD, t4, dm_i32(m, 16), DM_FLAGS_NONE),
              dm_binop(m, DM_ADD, loaded, t, DM_FLAGS_NONE));
    dm_ret_void(m);
    return finish(m, entry, 0, 4, ARRAY_U2_CB0, 2, out);
}

/*
 * struct S { uint4 v; };
 * ConstantBuffer<S> cbs[2] : register(b1, space1);
 * RWByteAddressBuffer o : register(u5, space1);
 * [numthreads(2, 1, 1)]
 * void main(uint g : SV_GroupID, uint t : SV_GroupIndex)
 * {
 *     uint i = g * 2 + t;
 *     o.Store(i * 8, cbs[0].v.x + cbs[1].v.y);
 *     o.Store(i * 8 + 4, cbs[g].v.z);      // dynamic, uniform in each group
 * }
 */
bool dxil_program_cs_handle_space1(struct tbuf *out)
{
    static const struct dxil_resource resources[2] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .space = 1,
          .lower_bound = 5, .type_name = "struct.RWByteAddressBuffer" },
        { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .space = 1,
          .lower_bound = 1, .range_size = 2, .cbuffer_size = 16, .type_name = "S" },
    };
    struct dxil_module *m = dm_create();
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t o = create_handle(m, DXIL_CLASS_UAV, 0, dm_i32(m, 5), false);
    uint32_t first = create_handle(m, DXIL_CLASS_CBV, 0, dm_i32(m, 1), false);
    uint32_t second = create_handle(m, DXIL_CLASS_CBV, 0, dm_i32(m, 2), false);
    uint32_t x_component = dm_i32(m, 0);
    uint32_t g = dm_dxop(m, "dx.op.groupId.i32", i32, DM_ATTR_READNONE, OP_GROUP_ID,
                         &x_component, 1);
    uint32_t t = flattened_thread(m);
    uint32_t i = dm_binop(m, DM_ADD, dm_binop(m, DM_SHL, g, dm_i32(m, 1), DM_FLAGS_NONE), t,
                          DM_FLAGS_NONE);
    uint32_t x = dm_extractvalue(m, cbuffer_row(m, first, 0), 0);
    uint32_t y = dm_extractvalue(m, cbuffer_row(m, second, 0), 1);
    uint32_t i8 = dm_binop(m, DM_SHL, i, dm_i32(m, 3), DM_FLAGS_NONE);
    store_u32(m, o, i8, dm_binop(m, DM_ADD, x, y, DM_FLAGS_NONE));
    /* dxc computes a dynamic index into a range at b1 as (g - 0) + 1 (§5.1). */
    uint32_t chosen = create_handle(m, DXIL_CLASS_CBV, 0,
                                    dm_binop(m, DM_ADD, g, dm_i32(m, 1), DM_FLAGS_NONE), false);
    uint32_t z = dm_extractvalue(m, cbuffer_row(m, chosen, 0), 2);
    store_u32(m, o, dm_binop(m, DM_ADD, i8, dm_i32(m, 4), DM_FLAGS_NONE), z);
    dm_ret_void(m);
    return finish(m, entry, 0, 2, resources, 2, out);
}

/* RWByteAddressBuffer bufs[3] : register(u1, space2); cbuffer cb0 : register(b0) { uint k; } */
static const struct dxil_resource SM66_RESOURCES[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .space = 2,
      .lower_bound = 1, .range_size = 3, .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
      .type_name = "cb0" },
};
static const int32_t BIND_U1_SPACE2[3] = { 1, 3, 2 }, BIND_B0[3] = { 0, 0, 0 };

/*
 * RWByteAddressBuffer bufs[3] : register(u1, space2);
 * cbuffer cb0 : register(b0) { uint k; };
 * [numthreads(1, 1, 1)]
 * void main() { bufs[k].Store(0, k + 7); bufs[2].Store(4, 99); }       (cs_6_6)
 */
bool dxil_program_cs_handle_sm66(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t cb0 = handle_from_binding(m, BIND_B0, DXIL_CLASS_CBV, dm_i32(m, 0), PROPS_CBUFFER, 16);
    uint32_t k = dm_extractvalue(m, cbuffer_row(m, cb0, 0), 0);
    uint32_t reg = dm_binop(m, DM_ADD, k, dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t chosen = handle_from_binding(m, BIND_U1_SPACE2, DXIL_CLASS_UAV, reg, PROPS_RAW_UAV, 0);
    store_u32(m, chosen, dm_i32(m, 0), dm_binop(m, DM_ADD, k, dm_i32(m, 7), DM_FLAGS_NONE));
    uint32_t last = handle_from_binding(m, BIND_U1_SPACE2, DXIL_CLASS_UAV, dm_i32(m, 3),
                                        PROPS_RAW_UAV, 0);
    store_u32(m, last, dm_i32(m, 4), dm_i32(m, 99));
    dm_ret_void(m);
    return finish(m, entry, 6, 1, SM66_RESOURCES, 2, out);
}

/*
 * RWByteAddressBuffer bufs[2] : register(u4);
 * [numthreads(2, 1, 1)]
 * void main(uint t : SV_GroupIndex)
 * { if (t != 0) bufs[NonUniformResourceIndex(t - 1)].Store(0, t + 5); }
 */
bool dxil_program_cs_handle_guarded(struct tbuf *out)
{
    static const struct dxil_resource resources[1] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .lower_bound = 4,
          .range_size = 2, .type_name = "struct.RWByteAddressBuffer" },
    };
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    uint32_t head = dm_block(m), store = dm_block(m), exit = dm_block(m);
    dm_at(m, head);
    uint32_t t = flattened_thread(m);
    /* As dxc writes it: the register (t - 1) + 4 computed before the branch. */
    uint32_t reg = dm_binop(m, DM_ADD, dm_binop(m, DM_ADD, t, dm_i32(m, -1), DM_FLAGS_NONE),
                            dm_i32(m, 4), DM_FLAGS_NONE);
    dm_br_cond(m, dm_cmp(m, DM_ICMP_NE, t, dm_i32(m, 0)), store, exit);
    dm_at(m, store);
    uint32_t h = create_handle(m, DXIL_CLASS_UAV, 0, reg, true);
    store_u32(m, h, dm_i32(m, 0), dm_binop(m, DM_ADD, t, dm_i32(m, 5), DM_FLAGS_NONE));
    dm_br(m, exit);
    dm_at(m, exit);
    dm_ret_void(m);
    return finish(m, entry, 0, 2, resources, 1, out);
}

/* createHandleFromHeap(218, index, samplerHeap, nonUniform), annotated with {props0, 0}
 * unless props0 is 0. */
static uint32_t heap_handle(struct dxil_module *m, uint32_t index, bool sampler_heap,
                            bool non_uniform, int32_t props0)
{
    uint32_t args[3] = { index, dm_i1(m, sampler_heap), dm_i1(m, non_uniform) };
    uint32_t h = dm_dxop(m, "dx.op.createHandleFromHeap", handle_type(m), DM_ATTR_READNONE,
                         OP_CREATE_HANDLE_FROM_HEAP, args, 3);
    if (!props0)
        return h;
    uint32_t i32 = dm_type_int(m, 32), pair[2] = { i32, i32 };
    uint32_t properties = dm_type_struct(m, "dx.types.ResourceProperties", pair, 2);
    uint32_t fields[2] = { dm_i32(m, props0), dm_i32(m, 0) };
    uint32_t annotate[2] = { h, dm_const_struct(m, properties, fields, 2) };
    return dm_dxop(m, "dx.op.annotateHandle", handle_type(m), DM_ATTR_READNONE,
                   OP_ANNOTATE_HANDLE, annotate, 2);
}

/*
 * cbuffer cb0 : register(b0) { uint k; };
 * [numthreads(2, 1, 1)]
 * void main(uint t : SV_GroupIndex)                                    (cs_6_6)
 * {
 *     ByteAddressBuffer src = ResourceDescriptorHeap[0];
 *     RWByteAddressBuffer dst = ResourceDescriptorHeap[NonUniformResourceIndex(k + t)];
 *     dst.Store(t * 4, src.Load(t * 4) + 50);
 * }
 */
bool dxil_program_cs_handle_heap(struct tbuf *out)
{
    static const struct dxil_resource resources[1] = {
        { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
          .type_name = "cb0" },
    };
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t cb0 = handle_from_binding(m, BIND_B0, DXIL_CLASS_CBV, dm_i32(m, 0), PROPS_CBUFFER, 16);
    uint32_t k = dm_extractvalue(m, cbuffer_row(m, cb0, 0), 0);
    uint32_t t = flattened_thread(m);
    uint32_t src = heap_handle(m, dm_i32(m, 0), false, false, PROPS_RAW_SRV);
    uint32_t dst = heap_handle(m, dm_binop(m, DM_ADD, k, t, DM_FLAGS_NONE), false, true,
                               PROPS_RAW_UAV);
    uint32_t t4 = dm_binop(m, DM_SHL, t, dm_i32(m, 2), DM_FLAGS_NONE);
    uint32_t loaded = load_u32(m, src, t4);
    store_u32(m, dst, t4, dm_binop(m, DM_ADD, loaded, dm_i32(m, 50), DM_FLAGS_NONE));
    dm_ret_void(m);
    return finish(m, entry, 6, 2, resources, 1, out);
}

/* A handle chosen by a phi: if (t == 0) h = bufs[0]; else h = bufs[1]; h.Store(0, 1). */
static void store_through_phi(struct dxil_module *m)
{
    uint32_t then_block = dm_block(m), else_block = dm_block(m), join = dm_block(m);
    uint32_t t = flattened_thread(m);
    dm_br_cond(m, dm_cmp(m, DM_ICMP_EQ, t, dm_i32(m, 0)), then_block, else_block);
    dm_at(m, then_block);
    uint32_t h0 = create_handle(m, DXIL_CLASS_UAV, 0, dm_i32(m, 2), false);
    dm_br(m, join);
    dm_at(m, else_block);
    uint32_t h1 = create_handle(m, DXIL_CLASS_UAV, 0, dm_i32(m, 3), false);
    dm_br(m, join);
    dm_at(m, join);
    uint32_t h = dm_phi(m, handle_type(m));
    dm_phi_incoming(m, h, h0, then_block);
    dm_phi_incoming(m, h, h1, else_block);
    store_u32(m, h, dm_i32(m, 0), dm_i32(m, 1));
}

bool dxil_program_cs_bad_handle(enum dxil_bad_handle which, struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint8_t sm_minor = 6;
    switch (which) {
    case DXIL_BAD_HANDLE_OUT_OF_RANGE:
        sm_minor = 0;
        store_u32(m, create_handle(m, DXIL_CLASS_UAV, 0, dm_i32(m, 6), false), dm_i32(m, 0),
                  dm_i32(m, 1));
        break;
    case DXIL_BAD_HANDLE_SELECT:
        sm_minor = 0;
        store_through_phi(m);
        break;
    case DXIL_BAD_HANDLE_HEAP:
        store_u32(m, heap_handle(m, dm_i32(m, 5), false, false, 0), dm_i32(m, 0), dm_i32(m, 1));
        break;
    case DXIL_BAD_HANDLE_SAMPLER_HEAP:
        store_u32(m, heap_handle(m, dm_i32(m, 5), true, false, PROPS_RAW_UAV), dm_i32(m, 0),
                  dm_i32(m, 1));
        break;
    case DXIL_BAD_HANDLE_PROPERTIES:
    default:
        store_u32(m, handle_from_binding(m, BIND_U1_SPACE2, DXIL_CLASS_UAV, dm_i32(m, 1),
                                         PROPS_TEXTURE2D_UAV, 0x109),
                  dm_i32(m, 0), dm_i32(m, 1));
        break;
    }
    dm_ret_void(m);
    return finish(m, entry, sm_minor, 1,
                  sm_minor ? SM66_RESOURCES : ARRAY_U2_CB0, 2, out);
}
