/* SPDX-License-Identifier: MIT */
/*
 * The module and signature-I/O helpers of dxil_program_io.h; opcodes from
 * ../shared/docs/dxil.md §3.6 (loadInput 4, storeOutput 5).
 */
#include "dxil_program_io.h"

enum { OP_LOAD_INPUT = 4, OP_STORE_OUTPUT = 5 };

struct dxil_module *dxil_program_begin(uint32_t *entry)
{
    struct dxil_module *m = dm_create();
    *entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    return m;
}

bool dxil_program_finish(struct dxil_module *m, const struct dxil_program_desc *d, struct tbuf *out)
{
    bool ok = dxil_program_write(m, d, out);
    dm_destroy(m);
    return ok;
}

uint32_t dxil_program_load_input(struct dxil_module *m, uint32_t type, const char *name,
                                 int32_t element, int8_t col, uint32_t vertex)
{
    uint32_t args[4] = { dm_i32(m, element), dm_i32(m, 0), dm_i8(m, col), vertex };
    return dm_dxop(m, name, type, DM_ATTR_READNONE, OP_LOAD_INPUT, args, 4);
}

void dxil_program_store_output(struct dxil_module *m, const char *name, int32_t element, int8_t col,
                               uint32_t value)
{
    uint32_t args[4] = { dm_i32(m, element), dm_i32(m, 0), dm_i8(m, col), value };
    dm_dxop(m, name, dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT, args, 4);
}

void dxil_program_store_float4(struct dxil_module *m, int32_t element, const uint32_t value[4])
{
    for (int8_t c = 0; c < 4; c++)
        dxil_program_store_output(m, "dx.op.storeOutput.f32", element, c, value[c]);
}
