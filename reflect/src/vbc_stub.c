/* PLACEHOLDER: replaced by the VBC reader. */
#include "shaderbridge/vbc.h"
#include "reflect_private.h"
enum sb_result sb_vbc_parse(const void *data, size_t size, struct sb_vbc **out, struct sb_error *error)
{
    (void)data; (void)size; *out = NULL;
    return sb_report_argument_error(error, "VBC reader not written yet");
}
void sb_vbc_destroy(struct sb_vbc *object) { sb_object_destroy(object); }
