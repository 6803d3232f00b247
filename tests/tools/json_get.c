/*
 * json_get.c - prints one value of a JSON file, for the shell tests:
 *     json-get report.json labs.0.coalescing.loads.efficiency
 * Path parts are object keys or array indices, joined by '.'. Exits 1 when the path is absent.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: json-get FILE PATH\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "json-get: cannot read '%s'\n", argv[1]);
        return 2;
    }
    static char text[1 << 22];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        fprintf(stderr, "json-get: '%s' is not valid JSON\n", argv[1]);
        return 2;
    }
    const cJSON *node = root;
    char *path = argv[2];
    for (char *part = strtok(path, "."); part && node; part = strtok(NULL, ".")) {
        if (isdigit((unsigned char)part[0]) && cJSON_IsArray(node))
            node = cJSON_GetArrayItem(node, atoi(part));
        else
            node = cJSON_GetObjectItemCaseSensitive(node, part);
    }
    if (!node)
        return 1;
    if (cJSON_IsString(node))
        printf("%s\n", node->valuestring);
    else if (cJSON_IsNumber(node))
        printf("%.17g\n", node->valuedouble);
    else if (cJSON_IsBool(node))
        printf("%s\n", cJSON_IsTrue(node) ? "true" : "false");
    else {
        char *s = cJSON_PrintUnformatted(node);
        printf("%s\n", s);
        free(s);
    }
    cJSON_Delete(root);
    return 0;
}
