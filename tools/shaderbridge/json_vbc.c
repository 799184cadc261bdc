/* PLACEHOLDER: replaced by the VBC JSON builder. */
#include "cli.h"
json_object *cli_json_vbc(const struct sb_vbc *o) { (void)o; return json_object_new_object(); }
void cli_describe_vbc(const struct sb_vbc *o, char *buf, size_t size) { (void)o; snprintf(buf, size, "vbc"); }
