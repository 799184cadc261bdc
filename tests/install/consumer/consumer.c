/* Parses and translates the file given on the command line with the installed library:
 * only the installed (public) headers and the exported functions are used. */
#include <shaderbridge/reflect.h>
#include <shaderbridge/translate.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    static unsigned char bytes[1 << 20];
    size_t size = f ? fread(bytes, 1, sizeof(bytes), f) : 0;
    if (f)
        fclose(f);
    struct sb_dxbc *dxbc;
    struct sb_error error;
    if (sb_dxbc_parse(bytes, size, &dxbc, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    printf("parts=%u checksum_ok=%d\n", dxbc->part_count, dxbc->checksum_ok);
    sb_dxbc_destroy(dxbc);
    struct sb_translation *translation;
    if (sb_translate(bytes, size, NULL, &translation, &error) != SB_SUCCESS) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    enum sb_ir_stage stage = translation->stage;
    printf("stage=%s spirv_magic=%d\n", stage == SB_IR_STAGE_VERTEX ? "vertex" : "other",
           translation->word_count > 5 && translation->words[0] == 0x07230203u);
    sb_translation_destroy(translation);
    return 0;
}
