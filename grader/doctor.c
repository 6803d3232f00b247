/* doctor.c - see doctor.h. */
#define _XOPEN_SOURCE 700
#include "doctor.h"

#include "i18n.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "exit_codes.h"
#include "runner.h"
#include "confine.h"
#include "sandbox.h"

const char *dr_counter_fix(const char *os_id)
{
    if (os_id && !strcmp(os_id, "windows"))
        return _("NVIDIA Control Panel > Desktop > Enable Developer Settings; then Developer >\n"
                 "Manage GPU Performance Counters > 'Allow access to the GPU performance counters\n"
                 "to all users'. Apply and run grade again.");
    if (os_id && !strcmp(os_id, "wsl"))
        return _("Under WSL the Windows driver decides: on Windows, NVIDIA Control Panel > Desktop "
                 ">\n"
                 "Enable Developer Settings; then Developer > Manage GPU Performance Counters >\n"
                 "'Allow access to all users'. Then restart WSL (wsl --shutdown).");
    int debian = os_id && (!strcmp(os_id, "ubuntu") || !strcmp(os_id, "debian") ||
                           !strcmp(os_id, "linuxmint") || !strcmp(os_id, "pop"));
    int dracut =
        os_id && (!strcmp(os_id, "fedora") || !strcmp(os_id, "rhel") || !strcmp(os_id, "rocky") ||
                  !strcmp(os_id, "almalinux") || !strcmp(os_id, "centos") ||
                  !strcmp(os_id, "opensuse-leap") || !strcmp(os_id, "opensuse-tumbleweed"));
    if (debian)
        return _("echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | \\\n"
                 "    sudo tee /etc/modprobe.d/nvidia-profiling.conf\n"
                 "sudo update-initramfs -u -k all\n"
                 "sudo reboot\n"
                 "(for one run only, without changing the machine: sudo build/grade ...)");
    if (dracut)
        return _("echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | \\\n"
                 "    sudo tee /etc/modprobe.d/nvidia-profiling.conf\n"
                 "sudo dracut --regenerate-all --force\n"
                 "sudo reboot\n"
                 "(for one run only, without changing the machine: sudo build/grade ...)");
    return _("echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | \\\n"
             "    sudo tee /etc/modprobe.d/nvidia-profiling.conf\n"
             "then rebuild the initramfs the way your distribution does, and reboot.\n"
             "(for one run only, without changing the machine: sudo build/grade ...)");
}

static void os_id(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/version", "r");
    char line[512];
    if (f) {
        if (fgets(line, sizeof line, f) && (strstr(line, "microsoft") || strstr(line, "WSL")))
            snprintf(buf, size, "wsl");
        fclose(f);
        if (!strcmp(buf, "wsl"))
            return;
    }
    f = fopen("/etc/os-release", "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "ID=", 3)) {
            char *v = line + 3;
            v += *v == '"';
            v[strcspn(v, "\"\n")] = '\0';
            snprintf(buf, size, "%s", v);
        }
    }
    fclose(f);
}

void dr_nvcc_version(const char *nvcc, char *buf, size_t size)
{
    buf[0] = '\0';
    const char *argv[] = {nvcc, "--version", NULL};
    rn_options ro = {.timeout_s = 30, .output_cap = 4096};
    rn_result r;
    if (rn_run(argv, &ro, &r) != 0)
        return;
    const char *rel = r.output ? strstr(r.output, "release ") : NULL;
    if (r.status == RN_EXITED && r.exit_code == 0 && rel) {
        rel += strlen("release ");
        size_t len = strcspn(rel, ", \n");
        snprintf(buf, size, "%.*s", (int)len, rel);
    }
    rn_result_free(&r);
}

static void line(FILE *out, const char *state, const char *what, const char *text)
{
    fprintf(out, "  %-5s ", state);
    i18n_pad(out, what, 13);
    fprintf(out, " %s\n", text);
}

static void fix(FILE *out, const char *text)
{
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, "\n");
        fprintf(out, "  %-5s %-13s %.*s\n", "", "", (int)len, p);
        p += len + (p[len] == '\n');
    }
}

static int counters_check(const gr_config *cfg, const char *workdir, FILE *out)
{
    ch_request req = {.args = {.mode = WI_COUNTERS, .workdir = workdir}, .timeout_s = 120};
    rn_result r;
    if (ch_run(cfg->worker, &req, &r) != 0)
        return 1;
    static wi_result res;
    char text[600], bad[512] = "";
    int read = ch_read_result(workdir, &res, bad, sizeof bad) == 0 && res.has_counters;
    const wi_counters *c = &res.counters;
    int bad_state = 1;
    if (r.status != RN_EXITED || r.exit_code != 0 || !read) {
        char how[256];
        rn_describe(&r, how, sizeof how);
        snprintf(text, sizeof text, _("the check %s%s%s"), how, *bad ? ": " : "", bad);
        line(out, "FAIL", _("counters"), text);
    } else if (c->status == WI_ENGINE_OK) {
        snprintf(text, sizeof text, _("readable (CUPTI range profiler, chip %s)"), c->chip);
        line(out, "ok", _("counters"), text);
        bad_state = 0;
    } else if (c->status == WI_ENGINE_NO_PERMISSION) {
        line(out, "FAIL", _("counters"),
             _("only administrators may read this GPU's performance counters"));
        char id[64];
        os_id(id, sizeof id);
        fix(out, _("fix, as an administrator:"));
        fix(out, dr_counter_fix(id));
    } else {
        snprintf(text, sizeof text, _("unavailable: %s"), c->why);
        line(out, "FAIL", _("counters"), text);
    }
    rn_result_free(&r);
    return bad_state;
}

/* The GPU and its driver; returns 1 when there is a usable GPU. */
static int gpu_confined = -1; /* what gpu_check's probe found, for sandbox_check; -1: no GPU */

static int gpu_check(const gr_config *cfg, const char *workdir, FILE *out)
{
    di_info dev;
    char why[1024], text[1024], drv[16], rt[16];
    int gpu = gr_probe(cfg, workdir, &dev, &gpu_confined, why, sizeof why);
    if (gpu != 0)
        gpu_confined = -1;
    di_version_string(dev.driver_version, drv, sizeof drv);
    di_version_string(dev.runtime_version, rt, sizeof rt);
    if (gpu != 0) {
        line(out, "FAIL", _("GPU"), why);
        fix(out, _("check 'nvidia-smi'; install or update the NVIDIA driver"));
        return 0;
    }
    snprintf(text, sizeof text, _("%s (compute capability %d.%d, %d SMs, %.0f MB L2)"), dev.name,
             dev.cc_major, dev.cc_minor, dev.sm_count, dev.l2_bytes / 1e6);
    line(out, "ok", _("GPU"), text);
    if (di_peak_bytes_per_s(&dev) > 0 && di_peak_fp32_flops(&dev) > 0) {
        snprintf(text, sizeof text,
                 _("memory %.0f GB/s, FP32 %.1f TFLOP/s (theoretical, from the device's "
                   "attributes; grade --bench measures the memory's ceiling)"),
                 di_peak_bytes_per_s(&dev) / 1e9, di_peak_fp32_flops(&dev) / 1e12);
        line(out, "ok", _("peaks"), text);
    }
    snprintf(text, sizeof text, _("supports CUDA %s; the grader runs on CUDA %s"), drv, rt);
    if (dev.driver_version < 12040) {
        /* Recording and replaying the launches asks the driver for kernel parameter layouts. */
        line(out, "FAIL", _("driver"), text);
        fix(out, _("grading replays the recorded launches, which needs a driver for CUDA 12.4 or "
                   "newer: update the NVIDIA driver"));
        return 0;
    }
    line(out, "ok", _("driver"), text);
    return 1;
}

/* The CUDA compiler; returns 1 when it runs. */
static int nvcc_check(const gr_config *cfg, FILE *out)
{
    char nv[32], text[1024];
    dr_nvcc_version(cfg->nvcc, nv, sizeof nv);
    if (*nv) {
        snprintf(text, sizeof text, _("%s (release %s)"), cfg->nvcc, nv);
        line(out, "ok", _("nvcc"), text);
        return 1;
    }
    snprintf(text, sizeof text, _("cannot run '%s'"), cfg->nvcc);
    line(out, "FAIL", _("nvcc"), text);
    fix(out, _("install the CUDA Toolkit, or name the compiler: NVCC=/path/to/nvcc"));
    return 0;
}

/* cuobjdump beside nvcc, which lists the SASS that the device code is checked in; without it
 * the grader checks the PTX instead. Never a problem: the check still fails closed. */
static void cuobjdump_check(const gr_config *cfg, FILE *out)
{
    char tool[PATH_MAX], release[32], text[PATH_MAX + 256];
    if (gr_cuobjdump(cfg, tool) != 0) {
        snprintf(text, sizeof text,
                 _("not found beside '%s': the device code is checked in its PTX, not in the "
                   "SASS the GPU runs"),
                 cfg->nvcc);
        line(out, "--", _("cuobjdump"), text);
        fix(out, _("install the CUDA Toolkit's binary utilities (cuobjdump) beside nvcc"));
        return;
    }
    dr_nvcc_version(tool, release, sizeof release);
    if (*release)
        snprintf(text, sizeof text, _("%s (release %s): the device code is checked in its SASS"),
                 tool, release);
    else
        snprintf(text, sizeof text,
                 _("'%s' does not run: the device code is checked in its PTX, not in its SASS"),
                 tool);
    line(out, *release ? "ok" : "--", _("cuobjdump"), text);
}

/* Whether the trace engine was built beside the grading child. */
static int tracer_built(const gr_config *cfg)
{
    char lib[4200], fatbin[4200];
    snprintf(lib, sizeof lib, "%s/%s", cfg->tracer_dir, WI_TRACER_LIB);
    snprintf(fatbin, sizeof fatbin, "%s/%s", cfg->tracer_dir, WI_TRACER_PATCH);
    return access(lib, R_OK) == 0 && access(fatbin, R_OK) == 0;
}

/* Whether the compile and the recording are confined, and whether the confinement hides the
 * grader's own tree from the compile (it cannot where the tree lies in a folder the compile
 * must read, such as /usr). Never a problem: grading works unconfined, less safely. */
static void sandbox_check(const gr_config *cfg, const char *workdir, FILE *out)
{
    char text[1024];
    sb_describe(text, sizeof text);
    if (!sb_abi()) {
        line(out, "--", _("sandbox"), text);
        fix(out, _("grade untrusted submissions in a container or as a user of their own "
                   "(docs: README.md, \"What the grader cannot stop\")"));
        return;
    }
    line(out, "ok", _("sandbox"), text);
    if (gpu_confined == GR_UNCONFINED) {
        line(out, "--", "",
             _("but the GPU does not start inside the recording's sandbox here, so "
               "the student's host code runs unconfined"));
        fix(out, _("grade untrusted submissions in a container or as a user of their own, and "
                   "report the driver version with 'grade --doctor' output"));
    } else if (gpu_confined == GR_WIDE) {
        line(out, "--", "",
             _("but the GPU starts inside the recording's sandbox here only where it may open "
               "every device file: the student's host code can open this terminal"));
        fix(out, _("report the driver version with 'grade --doctor' output; grade untrusted "
                   "submissions without a terminal (a batch job, a service)"));
    } else if (gpu_confined == GR_WRITES && gr_confinement_asked() == GR_WRITES) {
        line(out, "--", "",
             _("the recording may still read what this user can: GRADE_CONFINE=reads confines "
               "its reads too (not yet the default)"));
    } else if (gpu_confined == GR_WRITES) {
        line(out, "--", "",
             _("but the GPU starts inside the recording's sandbox here only where it may read "
               "every file: the student's host code can read what this user can"));
        fix(out, _("grade untrusted submissions as a user of their own that cannot read the "
                   "instructor's tree, and report the driver version with 'grade --doctor' "
                   "output"));
    }
    static sb_policy p;
    static char toolkit[PATH_MAX];
    char root[PATH_MAX], real[PATH_MAX];
    gr_compile_policy(cfg, workdir, &p, toolkit);
    if (!realpath(cfg->root, root))
        return;
    for (int i = 0; i < SB_MAX_PATHS && p.read[i]; ++i) {
        size_t n = realpath(p.read[i], real) ? strlen(real) : 0;
        if (n && !strncmp(root, real, n) && (root[n] == '/' || root[n] == '\0' || n == 1)) {
            snprintf(text, sizeof text,
                     _("this tree ('%.400s') lies in '%.400s', which the compile must read: a "
                       "submission can #include the solutions by their absolute path"),
                     root, real);
            line(out, "--", "", text);
            fix(out, _("grade from a copy of the tree outside the system's folders"));
            return;
        }
    }
}

/* Runs script with sh as the grader runs a recording (its environment, its session, and
 * confined by policy where it is not NULL); 1 when it printed want. */
static int child_says(const char *script, const sb_policy *policy, const char *dir,
                      const char *want)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    rn_options ro = {
        .timeout_s = 20, .output_cap = 4096, .workdir = dir, .clean_env = 1, .sandbox = policy};
    rn_result r;
    int said = rn_run(argv, &ro, &r) == 0 && r.output && strstr(r.output, want) != NULL;
    rn_result_free(&r);
    return said;
}

/* What the student's host code can reach here, each defence tried on this machine with a
 * child run as the recording is: the terminal, the grader's environment, the grader's tree. */
static void reach_check(const gr_config *cfg, const char *workdir, FILE *out)
{
    if (mkdir(workdir, 0700) != 0 && errno != EEXIST)
        return;
    int tty = child_says("if (exec >/dev/tty) 2>/dev/null; then echo reached; else echo none; fi",
                         NULL, workdir, "none");
    line(out, tty ? "ok" : "--", _("terminal"),
         tty ? _("the grading children have none: nothing they run can write to it or type "
                 "into it")
             : _("a grading child could open this terminal"));
    setenv("CL_DOCTOR_MARK", "the grader's", 1);
    int env = child_says("echo \"${CL_DOCTOR_MARK:-none}\"", NULL, workdir, "none");
    unsetenv("CL_DOCTOR_MARK");
    line(out, env ? "ok" : "--", _("environment"),
         env ? _("the grading children start from a small fixed one, never the grader's")
             : _("the grader's environment reaches its children"));
    char probe[PATH_MAX + 32], script[PATH_MAX + 128];
    snprintf(probe, sizeof probe, "%s/README.md", cfg->root);
    if (sb_abi() == 0 || access(probe, R_OK) != 0)
        return;
    static sb_policy policy;
    gr_confinement level =
        gpu_confined >= 0 ? (gr_confinement)gpu_confined : gr_confinement_asked();
    gr_record_policy(cfg, workdir, NULL, level, &policy);
    snprintf(script, sizeof script,
             "if cat '%s' >/dev/null 2>&1; then echo read; else echo none; fi", probe);
    int hidden = level != GR_UNCONFINED && child_says(script, &policy, workdir, "none");
    line(out, hidden ? "ok" : "--", _("reads"),
         hidden ? _("the recording cannot read this tree (the solutions), $HOME or other "
                    "students' folders")
                : _("the recording can read this tree, the solutions and other students' "
                    "files"));
    if (!hidden)
        fix(out, level == GR_WRITES && gr_confinement_asked() == GR_WRITES
                     ? _("GRADE_CONFINE=reads confines its reads (not yet the default), or "
                         "grade as a user of its own that cannot read them")
                     : _("grade as a user of its own that cannot read them"));
}

int dr_run(const gr_config *cfg, const char *workdir, FILE *out)
{
    fprintf(out, _("grade --doctor: what grading needs on this machine\n"));
    if (access(cfg->worker, X_OK) != 0) {
        char text[4200];
        snprintf(text, sizeof text, _("'%s' is missing: rebuild (make -f Makefile.student)"),
                 cfg->worker);
        line(out, "FAIL", _("grader"), text);
        return CL_EXIT_ENV;
    }
    char lang[8192];
    int untranslated = i18n_describe(lang, sizeof lang);
    /* Not a problem for grading: the report is then in English. */
    line(out, untranslated ? "--" : "ok", _("language"), lang);
    int gpu = gpu_check(cfg, workdir, out);
    int problems = !gpu + !nvcc_check(cfg, out);
    cuobjdump_check(cfg, out);
    sandbox_check(cfg, workdir, out);
    reach_check(cfg, workdir, out);
    int traced = tracer_built(cfg);
    /* Counters only corroborate when the trace engine is there: not having them is no problem. */
    if (gpu) {
        int bad = counters_check(cfg, workdir, out);
        problems += bad && !traced;
        if (bad && traced)
            fix(out, _("(optional: the trace engine grades without them)"));
    } else {
        line(out, "--", _("counters"), _("not checked without a GPU"));
    }
    if (traced) {
        line(out, "ok", _("trace engine"), _("built (Compute Sanitizer API; needs no permission)"));
    } else {
        line(out, "--", _("trace engine"),
             _("not built: the CUDA Toolkit used for the build had no compute-sanitizer/ API"));
        fix(out, _("install the full CUDA Toolkit and rebuild; the counters engine still works"));
    }
    fprintf(out, "%s\n",
            problems ? _("some checks failed: grading cannot measure everything here")
                     : _("everything grading needs is here"));
    return problems ? CL_EXIT_ENV : CL_EXIT_OK;
}
