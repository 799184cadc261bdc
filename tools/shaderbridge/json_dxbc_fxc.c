/* PLACEHOLDER: replaced by the FXC-parts JSON builder. */
#include "cli.h"
json_object *cli_json_dxbc_fxc_part(const struct sb_dxbc *d, const struct sb_dxbc_part *p) { (void)d; (void)p; return NULL; }
