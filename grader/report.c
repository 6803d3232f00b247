/* report.c - see report.h. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "wire.h"

const char *rp_verdict_word(oc_verdict v)
{
    static const char *const words[] = {"PASS", "FAIL", "NOT GRADED"};
    return words[v];
}

/* A report line's label, translated and padded to 12 columns: for "  %-12s " formats, whose
 * padding counts bytes, not columns. Each call has a buffer of its own, four in turn. */
static const char *L(const char *label)
{
    static char bufs[4][96];
    static int next;
    char *b = bufs[next++ % 4];
    const char *t = *label ? _(label) : "";
    int pad = 12 - i18n_width(t);
    snprintf(b, sizeof bufs[0], "%s%*s", t, pad > 0 ? pad : 0, "");
    return b;
}

static void engine_line(FILE *out, const char *label, const oc_traffic *t, double eff, double need)
{
    fprintf(out, _("  %-12s %5.1f%%  %4.1f sectors/request  (need >= %.0f%%)  %s\n"), L(label),
            100 * eff, t->requests > 0 ? t->sectors / t->requests : 0.0, 100 * need,
            eff >= need ? _("ok") : _("too low"));
}

static void indented_block(FILE *out, const char *text, size_t max_lines)
{
    size_t lines = 0;
    const char *p = text;
    while (*p && lines < max_lines) {
        size_t len = strcspn(p, "\n");
        fputs("    | ", out);
        for (size_t i = 0; i < len; ++i) /* no \r or escape can redraw the report's lines */
            fputc((unsigned char)p[i] < 0x20 && p[i] != '\t' ? '?' : p[i], out);
        fputc('\n', out);
        p += len + (p[len] == '\n');
        ++lines;
    }
    if (*p)
        fputs(_("    | ... (cut; the rest is in the JSON report)\n"), out);
}

/* Whether the graded efficiency came from the trace engine. */
static int by_trace(const oc_outcome *o)
{
    return o->engine == OC_BY_TRACE;
}

static void tally_line(FILE *out, const char *label, const cl_tally *t, double eff, double need)
{
    fprintf(out,
            _("  %-12s %5.1f%%  %4.1f sectors/request  (need >= %.0f%%)  %-7s  Nsight %.1f%%\n"),
            L(label), 100 * eff, cl_tally_sectors_per_request(t), 100 * need,
            eff >= need ? _("ok") : _("too low"), 100 * cl_tally_bytes_per_sector(t));
}

/* Says when an efficiency shown is the one against the task's least traffic. */
static void task_note(FILE *out, const oc_outcome *o)
{
    if (!o->load_by_task && !o->store_by_task)
        return;
    fprintf(out, _("  %-12s "), "");
    i18n_wrap(
        out,
        _("counted against the least traffic the task needs (each input read once and each output "
          "written once; in the matrix products, tiles of 16 x 16): a request split in several, or "
          "a "
          "word read again, only adds sectors"),
        15, 15);
}

/* The trace engine's lines: efficiency, how it was measured, the worst line of code. */
static void trace_lines(FILE *out, const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    tally_line(out, N_("loads"), &o->trace_loads, o->load_eff, s->min_load_eff);
    tally_line(out, N_("stores"), &o->trace_stores, o->store_eff, s->min_store_eff);
    task_note(out, o);
    char warps[96];
    snprintf(warps, sizeof warps, "%s", _("every warp"));
    if (o->trace_sample > 1)
        snprintf(warps, sizeof warps, _("every block's edges, 1 in %u other warps"),
                 o->trace_sample);
    fprintf(out, _("  %-12s trace (Compute Sanitizer), %s, %.0f requests traced%s\n"),
            L(N_("measured by")), warps, o->trace_records,
            o->trace_dropped > 0 ? _(" (buffer full: scaled up to the whole run)") : "");
    if (o->trace_smaller && s->trace_size_text) {
        fprintf(out, _("  %-12s "), "");
        i18n_wrap(out, _(s->trace_size_text), 15, 15);
    }
    if (o->disagreement[0])
        fprintf(out, _("  %-12s ENGINES DISAGREE: %s\n"), "", o->disagreement);
    else if (o->counters == OC_ENGINE_OK && o->trace_smaller)
        fprintf(out, _("  %-12s counters agree, at full size: %.1f and %.1f sectors/request\n"), "",
                o->load.requests > 0 ? o->load.sectors / o->load.requests : 0.0,
                o->store.requests > 0 ? o->store.sectors / o->store.requests : 0.0);
    else if (o->counters == OC_ENGINE_OK)
        fprintf(out, _("  %-12s counters agree: %.1f and %.1f sectors/request\n"), "",
                o->load.requests > 0 ? o->load.sectors / o->load.requests : 0.0,
                o->store.requests > 0 ? o->store.sectors / o->store.requests : 0.0);
    const oc_worst *b = o->blamed;
    if (b && b->tally.sectors > b->tally.ideal_sectors) {
        const cl_tally *w = &b->tally;
        fprintf(out, _("  %-12s %s:%u  %s of %u B, %.1f sectors/request, %.1f%%\n"),
                L(N_("worst line")), b->file[0] ? b->file : "?", b->line,
                b->is_store ? _("store") : _("load"), b->size, cl_tally_sectors_per_request(w),
                100 * cl_tally_efficiency(w));
        if (b->text[0])
            fprintf(out, _("  %-12s   %s\n"), "", b->text);
    }
}

/* How far the kernel got: the compiler's messages, how its run ended, or its correctness. */
static void stage_lines(FILE *out, const oc_outcome *o)
{
    switch (o->stage) {
    case OC_STAGE_BUILD:
        fprintf(out, _("  %-12s does not compile:\n"), L(N_("build")));
        indented_block(out, o->compile_log ? o->compile_log : "", 20);
        break;
    case OC_STAGE_CONTRACT:
        fprintf(out, _("  %-12s FAIL  "), L(N_("launcher")));
        i18n_wrap(out, o->refused, 21, 21);
        break;
    case OC_STAGE_RUN:
        fprintf(out, _("  %-12s %s\n"), L(N_("run")),
                o->run_problem[0] ? o->run_problem : "no result");
        if (o->run_log && *o->run_log)
            indented_block(out, o->run_log, 12);
        break;
    case OC_STAGE_GUARDS:
        fprintf(out, _("  %-12s FAIL  %s\n"), L(N_("correctness")),
                o->oob_reads > 0 ? _("read outside its arrays")
                                 : _("wrote outside the output array"));
        break;
    case OC_STAGE_OUTPUTS:
        fprintf(out, _("  %-12s FAIL  %s\n"), L(N_("correctness")), o->check.details);
        break;
    default:
        fprintf(out, _("  %-12s %s  "), L(N_("correctness")), o->check.passed ? "ok  " : "FAIL");
        if (o->check_at[0])
            fprintf(out, _("at %s: "), o->check_at);
        i18n_wrap(out, o->check.summary, 21, 21);
        if (!o->check.passed)
            indented_block(out, o->check.details, 10);
        else if (o->shapes_checked > 1)
            fprintf(out,
                    _("%21sand right at %u smaller sizes too (one element, partial warps, "
                      "odd sizes)\n"),
                    "", o->shapes_checked - 1);
    }
}

/* The graded efficiency, and why an engine did not run. */
static void coalescing_lines(FILE *out, const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    if (o->efficiency_measured && by_trace(o)) {
        trace_lines(out, o);
    } else if (o->efficiency_measured) {
        engine_line(out, N_("loads"), &o->load, o->load_eff, s->min_load_eff);
        engine_line(out, N_("stores"), &o->store, o->store_eff, s->min_store_eff);
        task_note(out, o);
        fprintf(out,
                _("  %-12s hardware counters (CUPTI): useful bytes / (32 x sectors), as "
                  "Nsight Compute\n"),
                L(N_("measured by")));
        if (o->counters_kernels[0])
            fprintf(out, _("  %-12s %s\n"), L(N_("kernels")), o->counters_kernels);
    }
    if (o->trace != OC_ENGINE_NOT_RUN && o->trace != OC_ENGINE_OK) {
        fprintf(out, _("  %-12s not run: "), L(N_("trace")));
        i18n_wrap(out, o->trace_why, 15, 29);
    }
    if (o->counters != OC_ENGINE_NOT_RUN && o->counters != OC_ENGINE_OK) {
        fprintf(out, _("  %-12s not read: "), L(N_("counters")));
        i18n_wrap(out, o->counters_why, 15, 30);
    }
}

/* Whether the bytes the task moves fit in a few times the L2 (a bandwidth then partly measures
 * the cache). */
static int in_cache(const oc_outcome *o)
{
    return o->l2_bytes > 0 && o->useful_bytes < WI_WORKING_SET_L2S * (double)o->l2_bytes;
}

/* Bandwidth and bank conflicts (shown), and the speed gate (graded where the lab has one). */
static void timing_lines(FILE *out, const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    if (o->timed && o->ceiling_bytes_per_s > 0) {
        char peak[64] = "";
        if (o->peak_bytes_per_s > 0)
            snprintf(peak, sizeof peak, _("; peak %.0f GB/s"), o->peak_bytes_per_s / 1e9);
        fprintf(out,
                _("  %-12s %.0f GB/s, %.0f%% of this GPU's ceiling (%.0f GB/s, its best copy%s); "
                  "%.3f ms  (shown, not graded)\n"),
                L(N_("bandwidth")), o->student_bytes_per_s / 1e9,
                100 * o->student_bytes_per_s / o->ceiling_bytes_per_s, o->ceiling_bytes_per_s / 1e9,
                peak, o->student_ms);
    } else if (o->timed) {
        fprintf(out,
                _("  %-12s %.0f GB/s; %.3f ms  (shown, not graded; no ceiling: no room for its "
                  "copies)\n"),
                L(N_("bandwidth")), o->student_bytes_per_s / 1e9, o->student_ms);
    }
    if (o->timed && in_cache(o))
        fprintf(out,
                _("  %-12s its %.0f MB fit in %dx this GPU's %.0f MB L2: the time partly measures "
                  "the cache\n"),
                "", o->useful_bytes / 1e6, WI_WORKING_SET_L2S, (double)o->l2_bytes / 1e6);
    if (s->report_bank_conflicts && o->counters == OC_ENGINE_OK)
        fprintf(out,
                _("  %-12s %.2f bank conflicts per shared load, %.2f per shared store  (shown, "
                  "not graded)\n"),
                L(N_("shared mem")),
                o->shared_ld_requests > 0 ? o->shared_ld_conflicts / o->shared_ld_requests : 0.0,
                o->shared_st_requests > 0 ? o->shared_st_conflicts / o->shared_st_requests : 0.0);
    if (s->points_speed > 0 && o->speedup > 0 && o->stage > OC_STAGE_CORRECTNESS) {
        char rate[64] = "";
        if (s->flop > 0)
            snprintf(rate, sizeof rate, " (%.0f GFLOP/s)", s->flop / (o->student_ms * 1e6));
        fprintf(
            out, _("  %-12s %.2fx %s: %.3f ms%s against %.3f ms, same run  (need >= %.2fx)  %s\n"),
            L(N_("speed")), o->speedup, s->baseline_text ? _(s->baseline_text) : _("the baseline"),
            o->student_ms, rate, o->baseline_ms, s->min_speedup,
            o->speedup >= s->min_speedup ? _("ok") : _("too slow"));
    }
}

void rp_text_lab(FILE *out, const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    char head[128];
    snprintf(head, sizeof head, _("lab %s %s: %s"), s->id, s->slug, _(s->title));
    fputc('\n', out);
    i18n_pad(out, head, 58);
    fprintf(out, " %-10s %3d/%d\n", rp_verdict_word(o->verdict), o->score, o->max_score);
    fprintf(out, _("  %-12s %s"), L(N_("kernel")), o->kernel_path);
    if (o->compiled)
        if (o->compile_cached)
            fputs(_("  (compiled before: the same file, flags and toolkit)\n"), out);
        else
            fprintf(out, _("  (compiled in %.1f s)\n"), o->compile_s);
    else
        fputs("\n", out);
    stage_lines(out, o);
    coalescing_lines(out, o);
    timing_lines(out, o);
    fprintf(out, _("  %-12s "), L(N_("verdict")));
    i18n_wrap(out, o->reason, 15, 15);
    if (o->hint[0]) {
        fprintf(out, _("  %-12s "), L(N_("hint")));
        i18n_wrap(out, o->hint, 15, 15);
    }
    if (o->verdict != OC_PASS)
        fprintf(out, _("  %-12s handouts/%s-%s.md; then make -f Makefile.student grade LAB=%s\n"),
                L(N_("next")), s->id, s->slug, s->id);
}

rp_counts rp_count(const oc_outcome *outcomes, size_t n)
{
    rp_counts c = {0, 0, 0};
    for (size_t i = 0; i < n; ++i) {
        c.passed += outcomes[i].verdict == OC_PASS;
        c.failed += outcomes[i].verdict == OC_FAIL;
        c.skipped += outcomes[i].verdict == OC_NOT_GRADED;
    }
    return c;
}

void rp_text_summary(FILE *out, const oc_outcome *outcomes, size_t n)
{
    rp_counts c = rp_count(outcomes, n);
    fputc('\n', out);
    if (c.skipped)
        fprintf(out, _("%zu passed, %zu failed, %zu skipped\n"), c.passed, c.failed, c.skipped);
    else
        fprintf(out, _("%zu passed, %zu failed\n"), c.passed, c.failed);
}

static const char *engine_word(oc_engine_state s)
{
    static const char *const words[] = {"not_run",     "ok",     "no_permission",
                                        "unsupported", "failed", "kernel_failed"};
    return words[s];
}

static cJSON *traffic_json(const oc_traffic *t, double eff, double need)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "requests", t->requests);
    cJSON_AddNumberToObject(o, "sectors", t->sectors);
    cJSON_AddNumberToObject(o, "bytes", t->bytes);
    cJSON_AddNumberToObject(o, "sectors_per_request",
                            t->requests > 0 ? t->sectors / t->requests : 0.0);
    cJSON_AddNumberToObject(o, "efficiency", eff);
    cJSON_AddNumberToObject(o, "threshold", need);
    return o;
}

static cJSON *tally_json(const cl_tally *t)
{
    cJSON *o = wi_tally_to_json(t);
    cJSON_AddNumberToObject(o, "sectors_per_request", cl_tally_sectors_per_request(t));
    cJSON_AddNumberToObject(o, "bytes_per_sector", cl_tally_bytes_per_sector(t));
    return o;
}

static cJSON *tally_eff_json(const cl_tally *t, double eff, double need)
{
    cJSON *o = tally_json(t);
    cJSON_AddNumberToObject(o, "request_efficiency", cl_tally_efficiency(t));
    cJSON_AddNumberToObject(o, "efficiency", eff);
    cJSON_AddNumberToObject(o, "threshold", need);
    return o;
}

static cJSON *trace_json(const oc_outcome *o)
{
    cJSON *tr = cJSON_CreateObject();
    cJSON_AddStringToObject(tr, "state", engine_word(o->trace));
    cJSON_AddStringToObject(tr, "why", o->trace_why);
    cJSON_AddBoolToObject(tr, "smaller_problem", o->trace_smaller);
    if (o->trace != OC_ENGINE_OK)
        return tr;
    cJSON_AddNumberToObject(tr, "sample", o->trace_sample);
    cJSON_AddNumberToObject(tr, "records", o->trace_records);
    cJSON_AddNumberToObject(tr, "dropped", o->trace_dropped);
    cJSON_AddNumberToObject(tr, "seconds", o->trace_s);
    cJSON_AddItemToObject(tr, "loads", tally_json(&o->trace_loads));
    cJSON_AddItemToObject(tr, "stores", tally_json(&o->trace_stores));
    if (o->blamed) {
        const oc_worst *b = o->blamed;
        cJSON *w = cJSON_AddObjectToObject(tr, "worst");
        cJSON_AddStringToObject(w, "kernel", b->kernel);
        cJSON_AddStringToObject(w, "file", b->file);
        cJSON_AddNumberToObject(w, "line", b->line);
        cJSON_AddStringToObject(w, "source", b->text);
        cJSON_AddStringToObject(w, "op", b->is_store ? "store" : "load");
        cJSON_AddNumberToObject(w, "size", b->size);
        cJSON_AddItemToObject(w, "tally", tally_json(&b->tally));
        /* One sampled warp of it, lane by lane (null: inactive), for drawing it again
         * (handouts/demo/: the live demo's "your report" view). */
        cJSON_AddNumberToObject(w, "active", b->active);
        cJSON *a = cJSON_AddArrayToObject(w, "addresses");
        for (int l = 0; l < CL_WARP_SIZE; ++l)
            cJSON_AddItemToArray(a, (b->active >> l) & 1u ? cJSON_CreateNumber((double)b->addr[l])
                                                          : cJSON_CreateNull());
    }
    return tr;
}

static cJSON *counters_json(const oc_outcome *o)
{
    cJSON *ct = cJSON_CreateObject();
    cJSON_AddStringToObject(ct, "state", engine_word(o->counters));
    cJSON_AddStringToObject(ct, "why", o->counters_why);
    cJSON_AddStringToObject(ct, "kernels", o->counters_kernels);
    if (o->counters == OC_ENGINE_OK) {
        /* What the counters saw of the graded problem, beside the trace's (compared). */
        const oc_traffic *t[2] = {&o->load, &o->store};
        static const char *const names[2] = {"loads", "stores"};
        for (int i = 0; i < 2; ++i) {
            cJSON *x = cJSON_AddObjectToObject(ct, names[i]);
            cJSON_AddNumberToObject(x, "requests", t[i]->requests);
            cJSON_AddNumberToObject(x, "sectors", t[i]->sectors);
            cJSON_AddNumberToObject(x, "bytes", t[i]->bytes);
        }
        cJSON *sh = cJSON_AddObjectToObject(ct, "shared");
        cJSON_AddNumberToObject(sh, "ld_requests", o->shared_ld_requests);
        cJSON_AddNumberToObject(sh, "st_requests", o->shared_st_requests);
        cJSON_AddNumberToObject(sh, "ld_bank_conflicts", o->shared_ld_conflicts);
        cJSON_AddNumberToObject(sh, "st_bank_conflicts", o->shared_st_conflicts);
    }
    return ct;
}

static cJSON *coalescing_json(const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    cJSON *e = cJSON_CreateObject();
    cJSON_AddBoolToObject(e, "measured", o->efficiency_measured);
    cJSON_AddStringToObject(e, "definition",
                            by_trace(o)
                                ? "ideal sectors / sectors, ideal = ceil(unique bytes / 32) per "
                                  "request (a broadcast is 100%)"
                                : "bytes requested / (32 x sectors), per Nsight Compute");
    cJSON_AddStringToObject(e, "engine", oc_engine_name(o->engine));
    cJSON_AddStringToObject(e, "disagreement", o->disagreement);
    cJSON_AddNumberToObject(e, "load_task_efficiency", o->load_task_eff);
    cJSON_AddNumberToObject(e, "store_task_efficiency", o->store_task_eff);
    cJSON_AddItemToObject(e, "trace", trace_json(o));
    cJSON_AddItemToObject(e, "counters", counters_json(o));
    if (o->efficiency_measured && by_trace(o)) {
        cJSON_AddItemToObject(e, "loads",
                              tally_eff_json(&o->trace_loads, o->load_eff, s->min_load_eff));
        cJSON_AddItemToObject(e, "stores",
                              tally_eff_json(&o->trace_stores, o->store_eff, s->min_store_eff));
    } else if (o->efficiency_measured) {
        cJSON_AddItemToObject(e, "loads", traffic_json(&o->load, o->load_eff, s->min_load_eff));
        cJSON_AddItemToObject(e, "stores", traffic_json(&o->store, o->store_eff, s->min_store_eff));
    }
    return e;
}

/* The timing engine's figures and, where the lab has one, the speed gate. */
static void timing_json(cJSON *j, const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    cJSON *t = cJSON_AddObjectToObject(j, "timing");
    cJSON_AddBoolToObject(t, "measured", o->timed);
    if (o->timed) {
        cJSON_AddNumberToObject(t, "median_ms", o->student_ms);
        cJSON_AddNumberToObject(t, "bytes_per_s", o->student_bytes_per_s);
        cJSON_AddNumberToObject(t, "ceiling_bytes_per_s", o->ceiling_bytes_per_s);
        cJSON_AddStringToObject(t, "ceiling_kernel", o->ceiling_kernel);
        cJSON_AddNumberToObject(t, "peak_bytes_per_s", o->peak_bytes_per_s);
        cJSON_AddNumberToObject(
            t, "fraction_of_ceiling",
            o->ceiling_bytes_per_s > 0 ? o->student_bytes_per_s / o->ceiling_bytes_per_s : 0.0);
        cJSON_AddNumberToObject(
            t, "fraction_of_peak",
            o->peak_bytes_per_s > 0 ? o->student_bytes_per_s / o->peak_bytes_per_s : 0.0);
        cJSON_AddBoolToObject(t, "working_set_in_cache", in_cache(o));
    }
    if (s->points_speed > 0) {
        cJSON *sp = cJSON_AddObjectToObject(j, "speed");
        cJSON_AddBoolToObject(sp, "measured", o->speedup > 0);
        cJSON_AddStringToObject(sp, "baseline", s->baseline_text ? s->baseline_text : "");
        cJSON_AddNumberToObject(sp, "baseline_ms", o->baseline_ms);
        cJSON_AddNumberToObject(sp, "student_ms", o->student_ms);
        cJSON_AddNumberToObject(sp, "speedup", o->speedup);
        cJSON_AddNumberToObject(sp, "min_speedup", s->min_speedup);
        cJSON_AddNumberToObject(sp, "score", o->score_speed);
        cJSON_AddNumberToObject(sp, "max_score", s->points_speed);
    }
}

static cJSON *lab_json(const oc_outcome *o)
{
    const lab_spec *s = o->spec;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "id", s->id);
    cJSON_AddStringToObject(j, "slug", s->slug);
    cJSON_AddStringToObject(j, "title", s->title);
    cJSON_AddStringToObject(j, "kernel", o->kernel_path);
    cJSON_AddStringToObject(j, "size", s->size_text);
    cJSON_AddStringToObject(j, "verdict", rp_verdict_word(o->verdict));
    cJSON_AddStringToObject(j, "stage", oc_stage_name(o->stage));
    cJSON_AddNumberToObject(j, "score", o->score);
    cJSON_AddNumberToObject(j, "max_score", o->max_score);
    cJSON_AddStringToObject(j, "reason", o->reason);
    cJSON_AddStringToObject(j, "hint", o->hint);

    /* Where the lab's grading time went, wall seconds (checks: the CPU checks of outputs,
     * which run beside the trace and the counters, and inside them for a measured replay's). */
    cJSON *t = cJSON_AddObjectToObject(j, "seconds");
    const struct {
        const char *name;
        double v;
    } steps[] = {{"total", o->total_s}, {"compile", o->compile_s},  {"record", o->record_s},
                 {"run", o->run_s},     {"trace", o->trace_wall_s}, {"counters", o->counters_s},
                 {"checks", o->check_s}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i)
        cJSON_AddNumberToObject(t, steps[i].name, steps[i].v);

    cJSON *b = cJSON_AddObjectToObject(j, "build");
    cJSON_AddBoolToObject(b, "compiled", o->compiled);
    cJSON_AddNumberToObject(b, "seconds", o->compile_s);
    cJSON_AddStringToObject(b, "log", o->compile_log ? o->compile_log : "");

    cJSON *r = cJSON_AddObjectToObject(j, "run");
    cJSON_AddBoolToObject(r, "ran", o->ran);
    cJSON_AddStringToObject(r, "problem", o->run_problem);
    cJSON_AddBoolToObject(r, "guards_intact", o->guards_intact);
    cJSON_AddStringToObject(r, "refused", o->refused);
    cJSON_AddStringToObject(r, "log", o->run_log ? o->run_log : "");

    cJSON *c = cJSON_AddObjectToObject(j, "correctness");
    cJSON_AddBoolToObject(c, "passed", o->check_ok && o->check.passed);
    cJSON_AddNumberToObject(c, "checked", (double)o->check.checked);
    cJSON_AddNumberToObject(c, "mismatches", (double)o->check.mismatches);
    cJSON_AddNumberToObject(c, "unwritten", (double)o->check.unwritten);
    cJSON_AddStringToObject(c, "summary", o->check.summary);
    cJSON_AddStringToObject(c, "details", o->check.details);
    cJSON_AddNumberToObject(c, "shapes_checked", o->shapes_checked);
    cJSON_AddStringToObject(c, "at", o->check_at);
    cJSON_AddStringToObject(c, "wrong_while_measured", o->measured_wrong);

    cJSON_AddItemToObject(j, "coalescing", coalescing_json(o));
    timing_json(j, o);
    if (o->trace_smaller && s->trace_size_text)
        cJSON_AddStringToObject(j, "trace_size", s->trace_size_text);
    return j;
}

char *rp_json(const rp_manifest *m, const oc_outcome *outcomes, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *man = cJSON_AddObjectToObject(root, "manifest");
    cJSON_AddStringToObject(man, "tool", "grade");
    cJSON_AddStringToObject(man, "version", m->version ? m->version : "");
    cJSON_AddStringToObject(man, "nvcc", m->nvcc_version ? m->nvcc_version : "");
    cJSON_AddStringToObject(man, "arch", m->arch ? m->arch : "");
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
    cJSON_AddStringToObject(man, "seed", seed);
    if (m->device) {
        wi_device d = {.info = *m->device};
        cJSON_AddItemToObject(man, "gpu", wi_device_to_json(&d));
    } else {
        cJSON_AddNullToObject(man, "gpu");
    }
    cJSON *labs = cJSON_AddArrayToObject(root, "labs");
    for (size_t i = 0; i < n; ++i)
        cJSON_AddItemToArray(labs, lab_json(&outcomes[i]));
    rp_counts c = rp_count(outcomes, n);
    cJSON_AddNumberToObject(root, "passed", (double)c.passed);
    cJSON_AddNumberToObject(root, "failed", (double)c.failed);
    cJSON_AddNumberToObject(root, "skipped", (double)c.skipped);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

/* The text report of one lab, as a malloc'ed string ("" when memory runs out). */
static char *lab_text(const oc_outcome *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return calloc(1, 1);
    rp_text_lab(f, o);
    fclose(f);
    return buf ? buf : calloc(1, 1);
}

/* The graded parts of a lab, each with its points, its maximum and what to tell about it (the
 * correctness part: text, the whole text report). Returns how many. */
typedef struct part {
    const char *name;
    int score, max;
    const char *message;
} part;

static int lab_parts(const oc_outcome *o, part parts[4], const char *text)
{
    const lab_spec *s = o->spec;
    parts[0] = (part){"correctness", o->score_correct, s->points_correct, text};
    parts[1] = (part){"load coalescing", o->score_load, s->points_load, o->reason};
    parts[2] = (part){"store coalescing", o->score_store, s->points_store, o->reason};
    parts[3] = (part){"speed", o->score_speed, s->points_speed, o->reason};
    return s->points_speed > 0 ? 4 : 3;
}

static void gradescope_test(cJSON *tests, const oc_outcome *o, const char *part, int score, int max,
                            const char *output, const char *visibility)
{
    char name[128];
    snprintf(name, sizeof name, "lab %s %s: %s", o->spec->id, o->spec->slug, part);
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", name);
    cJSON_AddNumberToObject(t, "score", score);
    cJSON_AddNumberToObject(t, "max_score", max);
    cJSON_AddStringToObject(t, "status", score == max ? "passed" : "failed");
    cJSON_AddStringToObject(t, "output", output);
    if (visibility) /* a course file's (course.h); else Gradescope's default */
        cJSON_AddStringToObject(t, "visibility", visibility);
    cJSON_AddItemToArray(tests, t);
}

/* Gradescope's results of outcomes; text, when not NULL, is every part's output (else the
 * correctness part gets the lab's text report, the others its reason). */
static char *gradescope_results(const oc_outcome *outcomes, size_t n, const char *text)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *tests = cJSON_AddArrayToObject(root, "tests");
    double score = 0;
    for (size_t i = 0; i < n; ++i) {
        part parts[4];
        const oc_outcome *o = &outcomes[i];
        char *report = text ? NULL : lab_text(o);
        int nparts = lab_parts(o, parts, report);
        /* Where a course hides a part (its points and what it measured, until the due date),
         * the visible correctness part must not show it in the whole report: it says only
         * whether the outputs were right, and the report goes with the first hidden part. */
        int hidden = -1;
        for (int k = 1; k < nparts && hidden < 0; ++k)
            if (o->spec->visibility[k] && strcmp(o->spec->visibility[k], "visible"))
                hidden = k;
        char correct[700];
        if (hidden > 0 && !text) {
            int right = o->check_ok && o->check.passed && o->stage > OC_STAGE_CORRECTNESS;
            snprintf(correct, sizeof correct, "%s",
                     right ? _("correct: the outputs match the CPU reference at every size "
                               "checked")
                           : o->reason);
            parts[0].message = correct;
            parts[hidden].message = report;
        }
        for (int k = 0; k < nparts; ++k)
            gradescope_test(tests, o, parts[k].name, parts[k].score, parts[k].max,
                            text ? text : parts[k].message, o->spec->visibility[k]);
        score += o->score;
        free(report);
    }
    cJSON_AddNumberToObject(root, "score", score);
    char *json = cJSON_Print(root);
    cJSON_Delete(root);
    return json;
}

char *rp_gradescope(const oc_outcome *outcomes, size_t n)
{
    return gradescope_results(outcomes, n, NULL);
}

char *rp_gradescope_ungraded(const lab_spec *s, const char *reason)
{
    return rp_gradescope_none(&s, 1, reason);
}

char *rp_gradescope_none(const lab_spec *const *specs, size_t n, const char *reason)
{
    oc_outcome *o = calloc(n ? n : 1, sizeof *o); /* nothing graded: every part 0 */
    if (!o)
        return NULL;
    for (size_t i = 0; i < n; ++i)
        o[i].spec = specs[i];
    char *json = gradescope_results(o, n, reason);
    free(o);
    return json;
}

char *rp_json_none(const char *reason)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddBoolToObject(root, "passed", 0);
    cJSON_AddStringToObject(root, "error", reason);
    cJSON_AddArrayToObject(root, "labs");
    char *json = cJSON_Print(root);
    cJSON_Delete(root);
    return json;
}

/* One test of a GitHub Classroom runner result: a part of a lab, all its points or none. */
static void classroom_test(cJSON *tests, const oc_outcome *o, const char *part, int score, int max,
                           const char *message)
{
    char name[128];
    snprintf(name, sizeof name, "lab %s %s: %s", o->spec->id, o->spec->slug, part);
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", name);
    cJSON_AddStringToObject(t, "status", score == max ? "pass" : "fail");
    cJSON_AddNumberToObject(t, "score", score);
    cJSON_AddStringToObject(t, "message", message);
    cJSON_AddStringToObject(t, "test_code", "");
    cJSON_AddStringToObject(t, "filename", o->kernel_path);
    cJSON_AddNumberToObject(t, "line_no", o->blamed ? (double)o->blamed->line : 0);
    cJSON_AddNumberToObject(t, "duration", (double)(long)(1000 * o->total_s));
    cJSON_AddItemToArray(tests, t);
}

char *rp_classroom(const oc_outcome *outcomes, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON *status = cJSON_AddStringToObject(root, "status", "pass");
    cJSON *max = cJSON_AddNumberToObject(root, "max_score", 0);
    cJSON *tests = cJSON_AddArrayToObject(root, "tests");
    int max_score = 0, failed = 0, errors = 0;
    for (size_t i = 0; i < n; ++i) {
        const oc_outcome *o = &outcomes[i];
        part parts[4];
        char *text = lab_text(o);
        int nparts = lab_parts(o, parts, text);
        for (int k = 0; k < nparts; ++k) {
            classroom_test(tests, o, parts[k].name, parts[k].score, parts[k].max, parts[k].message);
            max_score += parts[k].max;
        }
        failed += o->verdict == OC_FAIL;
        errors += o->verdict == OC_NOT_GRADED;
        free(text);
    }
    cJSON_SetNumberValue(max, max_score);
    cJSON_SetValuestring(status, errors ? "error" : failed ? "fail" : "pass");
    char *json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return json;
}

char *rp_classroom_none(const lab_spec *const *specs, size_t n, const char *reason)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "status", "error");
    cJSON *max = cJSON_AddNumberToObject(root, "max_score", 0);
    cJSON *tests = cJSON_AddArrayToObject(root, "tests");
    int max_score = 0;
    for (size_t i = 0; i < n; ++i) {
        oc_outcome o; /* nothing graded: every part 0, reason its message */
        memset(&o, 0, sizeof o);
        o.spec = specs[i];
        part parts[4];
        int nparts = lab_parts(&o, parts, reason);
        for (int k = 0; k < nparts; ++k) {
            classroom_test(tests, &o, parts[k].name, 0, parts[k].max, reason);
            max_score += parts[k].max;
        }
    }
    cJSON_SetNumberValue(max, max_score);
    char *json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return json;
}

/* XML text: & < > " escaped, other control characters (but \n and \t) dropped. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else if (c >= 0x20 || c == '\n' || c == '\t')
            fputc(c, out);
    }
}

void rp_junit(FILE *out, const oc_outcome *outcomes, size_t n)
{
    rp_counts c = rp_count(outcomes, n);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<testsuites>\n  <testsuite name=\"grade\" tests=\"%zu\" failures=\"%zu\" "
            "skipped=\"%zu\">\n",
            n, c.failed, c.skipped);
    for (size_t i = 0; i < n; ++i) {
        const oc_outcome *o = &outcomes[i];
        fprintf(out, "    <testcase classname=\"lab%s\" name=\"", o->spec->id);
        xml_text(out, o->spec->slug);
        fprintf(out, "\">\n");
        if (o->verdict != OC_PASS) {
            fprintf(out, "      <%s message=\"", o->verdict == OC_FAIL ? "failure" : "skipped");
            xml_text(out, o->reason);
            fprintf(out, "\"/>\n");
        }
        char *text = lab_text(o);
        fprintf(out, "      <system-out>");
        xml_text(out, text);
        fprintf(out, "</system-out>\n    </testcase>\n");
        free(text);
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}

/* ---- grade --bench ---- */

static double share(double part, double whole)
{
    return whole > 0 ? 100 * part / whole : 0;
}

static void bench_row(FILE *out, FILE *csv, const oc_outcome *o, const char *kind)
{
    char loads[16] = "-", stores[16] = "-";
    if (o->efficiency_measured) {
        snprintf(loads, sizeof loads, "%.1f%%", 100 * o->load_eff);
        snprintf(stores, sizeof stores, "%.1f%%", 100 * o->store_eff);
    }
    const char *engine = o->efficiency_measured ? oc_engine_name(o->engine) : "-";
    double gbs = o->timed ? o->student_bytes_per_s / 1e9 : 0;
    fprintf(out,
            "%-4s %-9s %-11s %5d %7s %7s %-9s %6.0f %6.1f%% %6.1f%% %7.2f %7.2f %6.2f %6.2f "
            "%6.2f %8.2f\n",
            o->spec->id, kind, rp_verdict_word(o->verdict), o->score, loads, stores, engine, gbs,
            share(o->student_bytes_per_s, o->ceiling_bytes_per_s),
            share(o->student_bytes_per_s, o->peak_bytes_per_s), o->total_s, o->compile_s,
            o->record_s, o->run_s, o->trace_wall_s, o->counters_s);
    if (csv)
        fprintf(csv,
                "%s,%s,%s,%d,%.4f,%.4f,%s,%.6g,%.6g,%.6g,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
                "%.3f\n",
                o->spec->id, kind, rp_verdict_word(o->verdict), o->score,
                o->efficiency_measured ? o->load_eff : -1,
                o->efficiency_measured ? o->store_eff : -1, engine,
                o->timed ? o->student_bytes_per_s : 0, o->ceiling_bytes_per_s, o->peak_bytes_per_s,
                share(o->student_bytes_per_s, o->ceiling_bytes_per_s) / 100,
                share(o->student_bytes_per_s, o->peak_bytes_per_s) / 100, o->total_s, o->compile_s,
                o->record_s, o->run_s, o->trace_wall_s, o->counters_s, o->check_s);
}

void rp_bench_table(FILE *out, FILE *csv, const rp_bench *b)
{
    double ceiling = 0, peak = 0;
    const char *kernel = "";
    for (size_t i = 0; i < b->n; ++i)
        for (int k = 0; k < 2; ++k) {
            const oc_outcome *o = k ? &b->solutions[i] : &b->stubs[i];
            if (o->ceiling_bytes_per_s > ceiling) {
                ceiling = o->ceiling_bytes_per_s;
                kernel = o->ceiling_kernel;
            }
            if (o->peak_bytes_per_s > peak)
                peak = o->peak_bytes_per_s;
        }
    fprintf(out,
            "bench on %s, %s, seed %llu: ceiling %.0f GB/s (the best copy, %s), peak %.0f GB/s\n",
            b->gpu, b->date, (unsigned long long)b->seed, ceiling / 1e9, kernel[0] ? kernel : "-",
            peak / 1e9);
    double flops = b->dev ? di_peak_fp32_flops(b->dev) : 0;
    if (flops > 0 && ceiling > 0)
        fprintf(out,
                "FP32 peak %.1f TFLOP/s (%d SMs x %d lanes x 2 x %.2f GHz): below %.1f FLOP a byte "
                "of DRAM traffic a kernel is bound by memory (the FP32 peak over the ceiling), "
                "above it by arithmetic\n",
                flops / 1e12, b->dev->sm_count,
                di_fp32_lanes_per_sm(b->dev->cc_major, b->dev->cc_minor),
                b->dev->sm_clock_khz / 1e6, flops / ceiling);
    fprintf(out, "%-4s %-9s %-11s %5s %7s %7s %-9s %6s %7s %7s %7s %7s %6s %6s %6s %8s\n", "lab",
            "kind", "verdict", "score", "loads", "stores", "engine", "GB/s", "ceiling", "peak",
            "grade s", "compile", "record", "run", "trace", "counters");
    if (csv)
        fputs("lab,kind,verdict,score,load_eff,store_eff,engine,bytes_per_s,ceiling_bytes_per_s,"
              "peak_bytes_per_s,fraction_of_ceiling,fraction_of_peak,seconds,compile_s,record_s,"
              "run_s,trace_s,counters_s,checks_s\n",
              csv);
    for (size_t i = 0; i < b->n; ++i) {
        bench_row(out, csv, &b->stubs[i], "stub");
        bench_row(out, csv, &b->solutions[i], "solution");
    }
    fprintf(
        out,
        "wall time: the %zu stubs %.1f s, the solutions %.1f s, the solutions again (%s) %.1f s\n",
        b->n, b->stubs_s, b->solutions_s,
        b->no_cache ? "compiled again: no compile cache where the recording is not confined"
                    : "compiled before",
        b->again_s);
}
