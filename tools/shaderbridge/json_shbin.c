/* PLACEHOLDER: replaced by the SHBIN JSON builder. */
#include "cli.h"
json_object *cli_json_shbin(const struct sb_shbin *o) { (void)o; return json_object_new_object(); }
void cli_describe_shbin(const struct sb_shbin *o, char *buf, size_t size) { (void)o; snprintf(buf, size, "shbin"); }
