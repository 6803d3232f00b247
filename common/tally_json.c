/* tally_json.c - see tally_json.h. */
#include "tally_json.h"

cJSON *tj_to_json(const cl_tally *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "requests", (double)t->requests);
    cJSON_AddNumberToObject(o, "sectors", (double)t->sectors);
    cJSON_AddNumberToObject(o, "lines", (double)t->lines);
    cJSON_AddNumberToObject(o, "unique_bytes", (double)t->unique_bytes);
    cJSON_AddNumberToObject(o, "ideal_sectors", (double)t->ideal_sectors);
    return o;
}

static uint64_t field(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valuedouble > 0 ? (uint64_t)v->valuedouble : 0;
}

void tj_add_from_json(const cJSON *o, cl_tally *t)
{
    t->requests += field(o, "requests");
    t->sectors += field(o, "sectors");
    t->lines += field(o, "lines");
    t->unique_bytes += field(o, "unique_bytes");
    t->ideal_sectors += field(o, "ideal_sectors");
}
