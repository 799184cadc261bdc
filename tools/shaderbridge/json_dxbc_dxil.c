/* PLACEHOLDER: replaced by the DXIL-parts JSON builder. */
#include "cli.h"
json_object *cli_json_dxbc_dxil_part(const struct sb_dxbc *d, const struct sb_dxbc_part *p) { (void)d; (void)p; return NULL; }
