/* PLACEHOLDER decoders, replaced by dxbc_program.c, dxbc_psv0.c, ... */
#include "dxbc_private.h"
bool sb_dxbc_decode_program(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_hash(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_psv0(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_rts0(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_vers(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_ildn(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_srci(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_sym0(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_str0(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
