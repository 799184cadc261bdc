/* PLACEHOLDER decoders, replaced by dxbc_rdef.c, dxbc_signature.c, ... */
#include "dxbc_private.h"
bool sb_dxbc_decode_rdef(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_signature(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_shader_header(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_stat(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_sfi0(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
bool sb_dxbc_decode_ifce(struct sb_dxbc_decode_context *c, struct sb_cursor *d, struct sb_dxbc_part *p) { (void)c; (void)d; (void)p; return true; }
