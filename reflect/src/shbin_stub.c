/* PLACEHOLDER: replaced by the SHBIN reader. */
#include "shaderbridge/shbin.h"
#include "reflect_private.h"
enum sb_result sb_shbin_parse(const void *data, size_t size, struct sb_shbin **out, struct sb_error *error)
{
    (void)data; (void)size; *out = NULL;
    return sb_report_argument_error(error, "SHBIN reader not written yet");
}
void sb_shbin_destroy(struct sb_shbin *object) { sb_object_destroy(object); }
