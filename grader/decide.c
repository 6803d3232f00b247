/*
 * decide.c - see decide.h. The verdict is a chain of gates, in the order a student meets them:
 * the kernel compiles, runs to the end, stays inside its outputs, writes outputs that can be
 * checked and are right, can be measured again, was measured, moved its bytes with global
 * loads and stores, and those are coalesced (and, with a speed gate, fast enough). The first
 * gate that stops the lab records its stage, verdict, reason and hint; the report reads the
 * stage instead of working it out again.
 */
#include "decide.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exit_codes.h"
#include "hints.h"
#include "i18n.h"
#include "runner.h"

const char *oc_engine_name(oc_engine e)
{
    static const char *const names[] = {"", "trace", "counters"};
    return names[e];
}

const char *oc_stage_name(oc_stage s)
{
    static const char *const names[] = {"build",   "contract",    "run",        "guards",
                                        "outputs", "correctness", "remeasure",  "unmeasured",
                                        "traffic", "moved",       "coalescing", "speed_untimed",
                                        "speed",   "passed"};
    _Static_assert(sizeof names / sizeof names[0] == OC_STAGE_PASSED + 1, "a name per stage");
    return names[s];
}

/* Stops the lab at stage with verdict, the reason formatted, and hint (may be NULL). */
static void stop(oc_outcome *o, oc_stage stage, oc_verdict verdict, const char *hint,
                 const char *fmt, ...)
{
    o->stage = stage;
    o->verdict = verdict;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->reason, sizeof o->reason, fmt, ap);
    va_end(ap);
    snprintf(o->hint, sizeof o->hint, "%s", hint ? hint : "");
}

static double counters_efficiency(const oc_traffic *t)
{
    return t->sectors > 0 ? t->bytes / (32.0 * t->sectors) : 0.0;
}

/* Trace and counters count the same requests and sectors; a sampled trace can differ a little
 * on kernels whose warps differ, so only a difference over 2% is reported (at one warp in 16,
 * the first try), never averaged. The sampled figure's error grows as the square root of the
 * sampling interval, and so does the bar: 5.7% at one warp in 128 (on the H200, lab 03's
 * alternative solution alt_vector_rows, traced at one in 128, came out within 2% in one run
 * and 2.8% apart in the next). */
static double agreement(unsigned sample)
{
    return 0.02 * sqrt(sample > 16 ? sample / 16.0 : 1.0);
}

/* What the trace saw of what the counters count: its tally less the instructions they do not
 * (global atomics, generic-address accesses: outcome.h, trace_blind). */
static uint64_t less(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

static cl_tally counted_by_both(const cl_tally *t, const cl_tally *blind)
{
    cl_tally c = {less(t->requests, blind->requests), less(t->sectors, blind->sectors),
                  less(t->lines, blind->lines), less(t->unique_bytes, blind->unique_bytes),
                  less(t->ideal_sectors, blind->ideal_sectors)};
    return c;
}

static void compare_same_problem(oc_outcome *o)
{
    double tolerance = agreement(o->trace_sample);
    const char *names[2] = {_("loads"), _("stores")};
    cl_tally both[2] = {counted_by_both(&o->trace_loads, &o->trace_blind[0]),
                        counted_by_both(&o->trace_stores, &o->trace_blind[1])};
    const cl_tally *t[2] = {&both[0], &both[1]};
    const oc_traffic *c[2] = {&o->load, &o->store};
    size_t used = 0;
    for (int i = 0; i < 2; ++i) {
        if (!t[i]->requests || c[i]->requests <= 0)
            continue;
        double ts = (double)t[i]->sectors / t[i]->requests, cs = c[i]->sectors / c[i]->requests;
        if (fabs(ts - cs) > tolerance * (ts > cs ? ts : cs) && used < sizeof o->disagreement)
            used += (size_t)snprintf(o->disagreement + used, sizeof o->disagreement - used,
                                     _("%s%s: trace %.2f, counters %.2f sectors/request"),
                                     used ? "; " : "", names[i], ts, cs);
    }
}

/* Where the trace ran a smaller problem, the same kernels differ at their edges (partial
 * tiles): on the H200 the counters saw up to 15% more sectors per request at the graded size
 * than the trace at the smaller one for the solutions and alternative solutions of labs 04 and
 * 05, up to 68% for their stubs (tests/gpu/RESULTS.md). So there an access the trace found
 * coalesced enough must not take more than OTHER_PROBLEM_RATIO times its sectors per request at
 * the graded size; a kernel laying its threads out otherwise there takes several times more
 * (7x for lab 04's size_switch). A lab whose smaller problem has the graded one's pattern sets
 * its own, tighter ratio (lab_spec.trace_ratio). Sectors, not efficiencies, are compared: the
 * counters count a
 * broadcast as the bytes of one lane, the trace as a perfect access. */
#define OTHER_PROBLEM_RATIO 1.5
static void compare_other_problem(oc_outcome *o)
{
    const char *names[2] = {_("loads"), _("stores")};
    cl_tally both[2] = {counted_by_both(&o->trace_loads, &o->trace_blind[0]),
                        counted_by_both(&o->trace_stores, &o->trace_blind[1])};
    const cl_tally *t[2] = {&both[0], &both[1]};
    const oc_traffic *c[2] = {&o->load, &o->store};
    double need[2] = {o->spec->min_load_eff, o->spec->min_store_eff};
    size_t used = 0;
    for (int i = 0; i < 2; ++i) {
        if (!t[i]->requests || c[i]->requests <= 0 || cl_tally_efficiency(t[i]) < need[i])
            continue;
        double ts = (double)t[i]->sectors / t[i]->requests, cs = c[i]->sectors / c[i]->requests;
        double ratio = o->spec->trace_ratio > 0 ? o->spec->trace_ratio : OTHER_PROBLEM_RATIO;
        if (cs > ratio * ts && used < sizeof o->disagreement)
            used += (size_t)snprintf(o->disagreement + used, sizeof o->disagreement - used,
                                     _("%s%s: %.2f sectors/request by the trace on the smaller "
                                       "problem, %.2f by the counters on the graded one"),
                                     used ? "; " : "", names[i], ts, cs);
    }
}

static void compare_engines(oc_outcome *o)
{
    if (o->trace_smaller)
        compare_other_problem(o);
    else
        compare_same_problem(o);
}

/* Efficiency against the task's least traffic: the least bytes it must move, as sectors, over
 * the sectors its requests moved, at most 1. A request split into one-lane requests, a re-read
 * of cached words, any request beyond the task's, adds sectors to the denominator: it can only
 * lower this. */
static double task_efficiency(double least_bytes, double sectors)
{
    if (least_bytes <= 0)
        return -1;
    double least = least_bytes / 32.0;
    return sectors <= least ? 1.0 : least / sectors;
}

/* Grades the lower of the engine's per-request efficiency and the one against the task's least
 * traffic (least, the problem the engine measured), loads and stores apart: per request, a
 * strided access shows wherever it is; against the task, splitting or diluting requests. */
static void against_task(oc_outcome *o, double load_sectors, double store_sectors,
                         const double least[2])
{
    o->load_task_eff = task_efficiency(least[0], load_sectors);
    o->store_task_eff = task_efficiency(least[1], store_sectors);
    /* A hair below is rounding (a partial last sector); only a real difference is graded. */
    o->load_by_task = o->load_task_eff >= 0 && o->load_task_eff < o->load_eff - 0.005;
    o->store_by_task = o->store_task_eff >= 0 && o->store_task_eff < o->store_eff - 0.005;
    if (o->load_by_task)
        o->load_eff = o->load_task_eff;
    if (o->store_by_task)
        o->store_eff = o->store_task_eff;
}

/* Where the trace ran a smaller problem, the counters' sectors at the graded size are weighed
 * against the graded problem's least traffic too, and the lower efficiency graded: the traffic
 * the trace cannot see must be the task's as well. */
static void against_graded_size(oc_outcome *o)
{
    double eff[2] = {task_efficiency(o->least_bytes[0], o->load.sectors),
                     task_efficiency(o->least_bytes[1], o->store.sectors)};
    double *graded[2] = {&o->load_eff, &o->store_eff},
           *task[2] = {&o->load_task_eff, &o->store_task_eff};
    int *by[2] = {&o->load_by_task, &o->store_by_task};
    for (int i = 0; i < 2; ++i) {
        if (eff[i] < 0 || eff[i] >= *graded[i] - 0.005)
            continue;
        *graded[i] = *task[i] = eff[i];
        *by[i] = 1;
    }
}

/* Which engine's efficiency is graded: the trace (broadcast-aware, per instruction, no rights
 * needed) when it ran, else the counters. */
static void choose_engine(oc_outcome *o)
{
    o->engine = OC_BY_NONE;
    o->load_task_eff = o->store_task_eff = -1;
    o->load_by_task = o->store_by_task = 0;
    if (o->trace == OC_ENGINE_OK) {
        o->engine = OC_BY_TRACE;
        o->load_eff = cl_tally_efficiency(&o->trace_loads);
        o->store_eff = cl_tally_efficiency(&o->trace_stores);
        against_task(o, (double)o->trace_loads.sectors, (double)o->trace_stores.sectors,
                     o->trace_smaller ? o->trace_least_bytes : o->least_bytes);
        if (o->counters == OC_ENGINE_OK) {
            compare_engines(o);
            if (o->trace_smaller)
                against_graded_size(o);
        }
    } else if (o->counters == OC_ENGINE_OK) {
        o->engine = OC_BY_COUNTERS;
        o->load_eff = counters_efficiency(&o->load);
        o->store_eff = counters_efficiency(&o->store);
        against_task(o, o->load.sectors, o->store.sectors, o->least_bytes);
    }
    o->efficiency_measured = o->engine != OC_BY_NONE;
}

/* The speed gate, where the lab has one: the student's time against the grader's baseline,
 * same run. It is measured apart from coalescing, so it is worked out whenever timed. */
typedef struct speed {
    int gated, measured, ok;
    char text[256]; /* "1.21x as fast as ... (need >= 1.10x)", when gated and measured */
} speed;

static speed measure_speed(oc_outcome *o)
{
    const lab_spec *s = o->spec;
    speed sp = {.gated = s->points_speed > 0};
    sp.measured = !sp.gated || (o->timed && o->baseline_ms > 0 && o->student_ms > 0);
    o->speedup = sp.gated && sp.measured ? o->baseline_ms / o->student_ms : 0;
    sp.ok = !sp.gated || (sp.measured && o->speedup >= s->min_speedup);
    if (sp.gated && sp.measured)
        snprintf(sp.text, sizeof sp.text, _("%.2fx as fast as %s (need >= %.2fx)"), o->speedup,
                 s->baseline_text ? _(s->baseline_text) : _("the baseline"), s->min_speedup);
    return sp;
}

/* What to try when the kernel did not run to the end, by how it ended. */
static const char *run_hint(const oc_outcome *o)
{
    if (o->run_status == RN_TIMED_OUT)
        return _("Look for a loop whose index never reaches its bound, or a __syncthreads() that "
                 "not every thread of the block reaches.");
    if (o->run_status == RN_EXITED && o->run_exit == CL_EXIT_CONTRACT)
        return _("Keep the launcher's name, its parameters and its extern \"C\" exactly as the "
                 "lab's header declares them.");
    if (o->run_status == RN_EXITED && o->run_exit == CL_EXIT_IO)
        return _("The grader could not write its work folder: check the free space in /tmp.");
    if (o->run_log && strstr(o->run_log, "IllegalAddress"))
        return _("An illegal address means a thread indexed past an array: check the bound test "
                 "(i < n) on every access. Run 'compute-sanitizer' on a small program to find the "
                 "line.");
    return _("Read the message above: it names the CUDA call or the signal that stopped the "
             "kernel's process.");
}

/* ---- the gates before correctness: each returns 1 when it stopped the lab ---- */

static int gate_build(oc_outcome *o)
{
    if (o->compiled)
        return 0;
    stop(o, OC_STAGE_BUILD, OC_FAIL,
         _("Read the compiler's first error above: it names the line. Fix that one first; later "
           "errors often follow from it."),
         _("the kernel does not compile"));
    return 1;
}

static int gate_contract(oc_outcome *o)
{
    if (!o->refused[0])
        return 0;
    stop(o, OC_STAGE_CONTRACT, OC_FAIL,
         _("A launcher picks its grid and block, launches its kernels on the default stream and "
           "returns: no copies to or from the host, no allocations, no synchronisation, no other "
           "streams or libraries. Put all the work in your kernels."),
         _("the submission broke lab %s's contract: %s"), o->spec->id, o->refused);
    return 1;
}

static int gate_run(oc_outcome *o)
{
    if (o->ran && !o->run_problem[0])
        return 0;
    stop(o, OC_STAGE_RUN, OC_FAIL, run_hint(o), _("the kernel did not run to the end: %s"),
         o->run_problem[0] ? o->run_problem : _("no result"));
    return 1;
}

static int gate_guards(oc_outcome *o)
{
    if (o->guards_intact)
        return 0;
    stop(o, OC_STAGE_GUARDS, OC_FAIL,
         _("Some thread's index runs past the end (or before the start) of the output: guard every "
           "store with the bound test, and check the last block."),
         _("the kernel wrote outside its output array (the guard bytes around it changed)%s%s%s"),
         o->check_at[0] ? _(" at ") : "", o->check_at,
         o->check_at[0] ? _(", one of the small sizes it is also checked at") : "");
    return 1;
}

static int gate_outputs(oc_outcome *o)
{
    if (o->check_ok)
        return 0;
    stop(o, OC_STAGE_OUTPUTS, OC_FAIL,
         _("The launcher must leave its results in the output array it was given; it must not "
           "free or replace it."),
         _("the outputs could not be checked: %s"), o->check.details);
    return 1;
}

static int gate_correct(oc_outcome *o)
{
    if (o->check.passed) {
        o->score = o->score_correct = o->spec->points_correct;
        return 0;
    }
    const char *hint =
        o->check.hint[0] ? o->check.hint
        : o->check.unwritten
            ? _("Elements that were never written mean the grid does not cover the "
                "whole array: check how many threads you launch and the loop bounds.")
            : _("Compare the first wrong coordinates above with the index expression "
                "your threads compute.");
    if (o->recorded_run_correct)
        stop(o, OC_STAGE_CORRECTNESS, OC_FAIL,
             _("Every output element must be computed by a kernel the launcher launches, from the "
               "inputs alone: the grader measures those launches, so it replays them, and they "
               "must give the same result however often they run."),
             _("the output is wrong when the launcher's kernel launches are replayed (%zu of %zu "
               "elements differ), though its own run got it right: part of the work was done "
               "outside those launches"),
             o->check.mismatches, o->check.checked);
    else if (o->check_at[0])
        stop(o, OC_STAGE_CORRECTNESS, OC_FAIL, hint,
             _("the output is wrong at %s, one of the small sizes it is also checked at (right at "
               "the graded size): %zu of %zu elements differ"),
             o->check_at, o->check.mismatches, o->check.checked);
    else
        stop(o, OC_STAGE_CORRECTNESS, OC_FAIL, hint,
             _("the output is wrong: %zu of %zu elements differ"), o->check.mismatches,
             o->check.checked);
    return 1;
}

/* ---- correct: can it be, and was it, measured? ---- */

/* Correct when replayed, wrong while measured: the kernel behaves otherwise when it is watched,
 * and what was measured is not what was checked. */
static int gate_measured_outputs(oc_outcome *o)
{
    if (!o->measured_wrong[0])
        return 0;
    o->score = o->score_correct = 0; /* what it computed while measured was wrong */
    stop(o, OC_STAGE_REMEASURE, OC_FAIL,
         _("A kernel must compute the same whenever it runs: do not make its work depend on the "
           "clock, on how fast it runs, or on which warps might be watched."),
         _("correct when replayed, but wrong %s: %.1500s"), o->measured_wrong,
         o->measured_check.details);
    return 1;
}

/* The outputs are right, but the trace saw loads of an input's or output's guard bytes: past an
 * array's ends, which works here by chance and crashes or reads garbage elsewhere. */
static int gate_oob_reads(oc_outcome *o)
{
    if (o->oob_reads <= 0)
        return 0;
    char where[1400] = "";
    if (o->oob_line)
        snprintf(where, sizeof where, _(", the first at %.1000s:%u%s%.250s"), o->oob_file,
                 o->oob_line, o->oob_text[0] ? ": " : "", o->oob_text);
    stop(
        o, OC_STAGE_GUARDS, OC_FAIL,
        _("Some thread reads past the end (or before the start) of an array: guard every load with "
          "the same bound test as its store, and mind vector loads at a row's or an array's tail."),
        _("correct, but the kernel reads outside its arrays: %.0f loads of the traced warps read "
          "the bytes just past an input or output%s"),
        o->oob_reads, where);
    return 1;
}

/* Correct once, then crashed, hung, overflowed the trace or failed when measured: that is the
 * kernel's doing, and a kernel must not escape one engine by failing under it, whatever the
 * other measured. */
static int gate_remeasured(oc_outcome *o)
{
    if (o->trace != OC_ENGINE_RUN_FAILED && o->counters != OC_ENGINE_RUN_FAILED)
        return 0;
    stop(o, OC_STAGE_REMEASURE, OC_FAIL,
         _("A kernel must give the same result however often it runs: check that it does not "
           "depend on its outputs' old contents or on the environment."),
         _("correct, but the kernel failed when run again to measure it: %s"),
         o->trace == OC_ENGINE_RUN_FAILED ? o->trace_why : o->counters_why);
    return 1;
}

/* The speed part, where a gate stops before coalescing is graded: it is measured apart. */
static void keep_speed(oc_outcome *o, const speed *sp)
{
    o->score_speed = sp->gated && sp->ok ? o->spec->points_speed : 0;
    o->score += o->score_speed;
}

/* No engine could run here: NOT GRADED, never failed for it; the speed part still counts. */
static int gate_measured(oc_outcome *o, const speed *sp)
{
    if (o->efficiency_measured)
        return 0;
    keep_speed(o, sp);
    char hint[512];
    snprintf(hint, sizeof hint,
             _("Run 'make -f Makefile.student doctor' to see how to let the grader read the GPU's "
               "counters; your correctness%s points are kept."),
             o->score_speed ? _(" and speed") : "");
    stop(o, OC_STAGE_UNMEASURED, OC_NOT_GRADED, hint,
         _("correct; coalescing was not measured on this machine (%s)"),
         o->trace != OC_ENGINE_NOT_RUN      ? o->trace_why
         : o->counters != OC_ENGINE_NOT_RUN ? o->counters_why
                                            : _("no engine ran"));
    return 1;
}

/* No verdict from half the evidence: where an engine that could run here failed as a tool
 * (its own failure, not the kernel's: that is gate_remeasured's), the other alone gives no
 * coalescing points: NOT GRADED, the speed part kept. A trace that failed would leave the
 * counters to grade what they cannot see (atomics, a kernel's behaviour at the smaller
 * problem); counters that failed, the trace's sampled warps unchecked. Where the engine that
 * measured gives none anyway, it fails as graded (failing the other on purpose gains
 * nothing). */
static int gate_confirmed(oc_outcome *o, const speed *sp)
{
    const lab_spec *s = o->spec;
    int trace_failed = o->trace == OC_ENGINE_FAILED,
        counters_failed = o->counters == OC_ENGINE_FAILED;
    if ((!trace_failed && !counters_failed) ||
        (o->load_eff < s->min_load_eff && o->store_eff < s->min_store_eff))
        return 0;
    keep_speed(o, sp);
    if (trace_failed)
        stop(o, OC_STAGE_UNMEASURED, OC_NOT_GRADED,
             _("Grade it again. If the trace fails again, its message says why; 'make -f "
               "Makefile.student doctor' says whether this machine can trace."),
             _("correct; the trace engine failed (%s): the coalescing part is not given on the "
               "counters alone"),
             o->trace_why);
    else if (o->trace_smaller)
        stop(o, OC_STAGE_UNMEASURED, OC_NOT_GRADED,
             _("Grade it again. If the counters fail again, their message says why; 'make -f "
               "Makefile.student doctor' says whether this GPU's counters can be read."),
             _("correct; the trace watched a smaller problem, and the counters, which measure the "
               "graded one, failed (%s): the coalescing part is not given on the trace alone"),
             o->counters_why);
    else
        stop(o, OC_STAGE_UNMEASURED, OC_NOT_GRADED,
             _("Grade it again. If the counters fail again, their message says why; 'make -f "
               "Makefile.student doctor' says whether this GPU's counters can be read."),
             _("correct; the counters failed (%s): the coalescing part is not given on the "
               "trace alone"),
             o->counters_why);
    return 1;
}

/* Graded by the counters alone (the trace cannot run here), a kernel whose device code moves
 * global memory through instructions they do not count (global atomics, generic-address
 * accesses, counters_blind) would be graded on part of its traffic: NOT GRADED, the speed part
 * kept. */
static int gate_seen(oc_outcome *o, const speed *sp)
{
    if (o->engine != OC_BY_COUNTERS || !o->counters_blind)
        return 0;
    keep_speed(o, sp);
    stop(o, OC_STAGE_UNMEASURED, OC_NOT_GRADED,
         _("The trace engine measures those instructions: grade where the grader was built with "
           "the Compute Sanitizer API ('make -f Makefile.student doctor' says whether it was)."),
         _("correct; its device code has %zu global atomic or generic-address memory instructions, "
           "which the counters do not count, and the trace could not run: the coalescing part is "
           "not given on the counters alone"),
         o->counters_blind);
    return 1;
}

/* What the graded engine saw: requests and the bytes moved, against the task's least. */
typedef struct measured {
    double load_requests, store_requests;
    double moved, useful;
} measured;

static measured what_was_measured(const oc_outcome *o)
{
    measured m;
    if (o->engine == OC_BY_TRACE) {
        m.load_requests = (double)o->trace_loads.requests;
        m.store_requests = (double)o->trace_stores.requests;
        m.moved = (double)(o->trace_loads.unique_bytes + o->trace_stores.unique_bytes);
        m.useful = o->trace_smaller ? o->trace_useful_bytes : o->useful_bytes;
        /* A smaller traced problem says nothing of the full one; the counters, when they ran,
         * saw the full one and must have moved its bytes. */
        if (o->trace_smaller && o->counters == OC_ENGINE_OK &&
            o->load.bytes + o->store.bytes < 0.9 * o->useful_bytes) {
            m.moved = o->load.bytes + o->store.bytes;
            m.useful = o->useful_bytes;
        }
    } else {
        m.load_requests = o->load.requests;
        m.store_requests = o->store.requests;
        m.moved = o->load.bytes + o->store.bytes;
        m.useful = o->useful_bytes;
    }
    return m;
}

static int gate_traffic(oc_outcome *o, const measured *m)
{
    if (m->load_requests > 0 && m->store_requests > 0)
        return 0;
    stop(o, OC_STAGE_TRAFFIC, OC_FAIL,
         _("The kernel must read its input and write its output in GPU memory with ordinary loads "
           "and stores (copies through cp.async or the tensor memory accelerator are not seen by "
           "this grader yet)."),
         _("correct, but the %s saw no global %s: the result was not computed by the kernel on the "
           "GPU"),
         oc_engine_name(o->engine), m->load_requests <= 0 ? _("loads") : _("stores"));
    return 1;
}

/* The kernels must have moved (at the least) the bytes the task reads and writes, or part of
 * the work was done elsewhere, e.g. on the CPU next to a token kernel. */
static int gate_moved(oc_outcome *o, const measured *m)
{
    if (m->useful <= 0 || m->moved >= 0.9 * m->useful)
        return 0;
    stop(o, OC_STAGE_MOVED, OC_FAIL,
         _("Every input element must be read, and every output element written, by a kernel."),
         _("correct, but the kernels moved only %.2f MB of the %.2f MB the task reads and writes: "
           "part of the result was not computed on the GPU"),
         m->moved / 1e6, m->useful / 1e6);
    return 1;
}

/* ---- coalesced? ---- */

/* The trace blames an instruction of the kind that fails; when both pass, the most wasteful. */
static const oc_worst *blame(const oc_outcome *o, int load_ok, int store_ok)
{
    if (o->engine != OC_BY_TRACE)
        return NULL;
    const oc_worst *ld = o->worst[0].found ? &o->worst[0] : NULL;
    const oc_worst *st = o->worst[1].found ? &o->worst[1] : NULL;
    return !load_ok ? ld : !store_ok ? st : (ld && (!st || ld->waste >= st->waste)) ? ld : st;
}

/* The next step for accesses that fall short: the measured signature of the blamed
 * instruction (or of the failing kind as a whole), then the lab's own advice. */
/* Where the kind that falls short does so against the task alone (request by request it would
 * pass: split into requests of few lanes, or reading words again), the signature of one request
 * says nothing: say how many times the task's sectors its requests moved, and what that comes
 * from. Where a request wastes sectors itself, its signature says more (coalescing_hint). */
static int task_signature(const oc_outcome *o, int load_ok, char *sig, size_t size)
{
    int loads = !load_ok;
    double eff = loads ? o->load_task_eff : o->store_task_eff;
    double need = loads ? o->spec->min_load_eff : o->spec->min_store_eff;
    if (!(loads ? o->load_by_task : o->store_by_task) || eff <= 0)
        return 0;
    double requests, bytes, per_request;
    if (o->engine == OC_BY_TRACE) {
        const cl_tally *t = loads ? &o->trace_loads : &o->trace_stores;
        requests = (double)t->requests, bytes = (double)t->unique_bytes;
        per_request = cl_tally_efficiency(t);
    } else {
        const oc_traffic *t = loads ? &o->load : &o->store;
        requests = t->requests, bytes = t->bytes;
        per_request = counters_efficiency(t);
    }
    if (per_request < need)
        return 0;
    snprintf(sig, size,
             _("%s moved %.1f times the sectors the task needs at the least, %.1f bytes a "
               "request: requests of a few lanes each, or words read again, cost sectors that one "
               "request of the whole warp, reading consecutive words, would have shared."),
             loads ? _("Loads") : _("Stores"), 1.0 / eff, requests > 0 ? bytes / requests : 0.0);
    return 1;
}

static void coalescing_hint(oc_outcome *o, int load_ok)
{
    char sig[600];
    if (task_signature(o, load_ok, sig, sizeof sig)) {
        /* said */
    } else if (o->blamed && o->blamed->tally.requests) {
        const cl_tally *w = &o->blamed->tally;
        char what[64];
        snprintf(what, sizeof what, _("The %s on line %u"),
                 o->blamed->is_store ? _("store") : _("load"), o->blamed->line);
        hn_signature(what, (double)w->sectors / w->requests, (double)w->unique_bytes / w->requests,
                     sig, sizeof sig);
    } else {
        const oc_traffic *worst = !load_ok ? &o->load : &o->store;
        hn_signature(!load_ok ? _("Loads") : _("Stores"), worst->sectors / worst->requests,
                     worst->bytes / worst->requests, sig, sizeof sig);
    }
    const char *lab_hint = o->spec->efficiency_hint ? _(o->spec->efficiency_hint) : "";
    /* Two sentences: a space between them, but none after a full-width stop (Chinese). */
    size_t n = strlen(sig);
    int wide_end = n && (unsigned char)sig[n - 1] >= 0x80;
    snprintf(o->hint, sizeof o->hint, "%s%s%s", sig, n && *lab_hint && !wide_end ? " " : "",
             lab_hint);
}

/* When both engines measured the same problem and count different sectors per request, the
 * kernel did not do the same work under both: its coalescing cannot be graded. */
static int gate_agree(oc_outcome *o, const speed *sp)
{
    if (!o->disagreement[0])
        return 0;
    keep_speed(o, sp);
    stop(o, OC_STAGE_COALESCING, OC_FAIL,
         _("A kernel must do the same work however it is run: check that no thread decides what "
           "to read from the time, the clock or anything but its inputs and indices."),
         _("correct, but the two measuring engines disagree on its accesses (%s): the coalescing "
           "part cannot be given"),
         o->disagreement);
    return 1;
}

static void grade_coalescing(oc_outcome *o, const speed *sp)
{
    const lab_spec *s = o->spec;
    int load_ok = o->load_eff >= s->min_load_eff;
    int store_ok = o->store_eff >= s->min_store_eff;
    o->score_load = load_ok ? s->points_load : 0;
    o->score_store = store_ok ? s->points_store : 0;
    o->score_speed = sp->gated && sp->ok ? s->points_speed : 0;
    o->score += o->score_load + o->score_store + o->score_speed;
    o->blamed = blame(o, load_ok, store_ok);
    if (load_ok && store_ok) {
        if (sp->ok) {
            stop(o, OC_STAGE_PASSED, OC_PASS, NULL,
                 _("correct, and loads and stores are coalesced%s%s"), *sp->text ? "; " : "",
                 sp->text);
        } else if (!sp->measured) {
            char hint[512];
            snprintf(hint, sizeof hint,
                     _("Grade again without --no-timing: this lab's last %d points compare your "
                       "kernel's time with %s."),
                     s->points_speed, s->baseline_text ? _(s->baseline_text) : _("a baseline"));
            stop(o, OC_STAGE_SPEED_UNTIMED, OC_NOT_GRADED, hint,
                 _("correct and coalesced; the speed part was not measured (the timing engine "
                   "did not run)"));
        } else {
            stop(o, OC_STAGE_SPEED, OC_FAIL, s->speed_hint ? _(s->speed_hint) : NULL,
                 _("correct and coalesced, but only %s"), sp->text);
        }
        return;
    }
    stop(o, OC_STAGE_COALESCING, OC_FAIL, NULL, _("correct, but %s are not coalesced enough%s%s"),
         !load_ok && !store_ok ? _("loads and stores")
         : !load_ok            ? _("loads")
                               : _("stores"),
         *sp->text && !sp->ok ? _("; and only ") : "", *sp->text && !sp->ok ? sp->text : "");
    coalescing_hint(o, load_ok);
}

void gr_decide(oc_outcome *o)
{
    const lab_spec *s = o->spec;
    o->max_score = s->points_correct + s->points_load + s->points_store + s->points_speed;
    o->score = o->score_correct = o->score_load = o->score_store = o->score_speed = 0;
    o->hint[0] = o->disagreement[0] = '\0';
    o->blamed = NULL;
    speed sp = measure_speed(o);
    choose_engine(o);
    if (gate_build(o) || gate_contract(o) || gate_run(o) || gate_guards(o) || gate_outputs(o) ||
        gate_correct(o) || gate_measured_outputs(o) || gate_oob_reads(o) || gate_remeasured(o) ||
        gate_measured(o, &sp) || gate_confirmed(o, &sp) || gate_seen(o, &sp))
        return;
    measured m = what_was_measured(o);
    if (gate_traffic(o, &m) || gate_moved(o, &m) || gate_agree(o, &sp))
        return;
    grade_coalescing(o, &sp);
}
