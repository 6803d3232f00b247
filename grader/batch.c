/* batch.c - see batch.h. */
#define _GNU_SOURCE
#include "i18n.h"
#include "batch.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "exit_codes.h"
#include "gradebook.h"
#include "intake.h"
#include "outcome.h"
#include "pool.h"
#include "report.h"
#include "runner.h"
#include "seeded.h"
#include "wire.h"

void bt_file_name(const char *name, char *buf, size_t size)
{
    size_t i = 0;
    int changed = 0;
    uint64_t h = sd_fnv1a(name, strlen(name)); /* of the whole name */
    for (; name[i] && i + 18 < size; ++i) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-' || c == '@' || (c == '.' && i > 0);
        buf[i] = ok ? c : '_';
        changed |= !ok;
    }
    changed |= name[i] != '\0' || i == 0;
    buf[i] = '\0';
    /* Names that had to change keep a mark of what they were, so that two never meet: "a b"
     * and "a_b" are a_b-3f1c... and a_b. */
    if (changed)
        snprintf(buf + i, size - i, "%s%08x", i ? "-" : "_", (unsigned)(h ^ (h >> 32)));
}

static int make_dir(const char *path)
{
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static int write_text(const char *path, const char *text, size_t size, mode_t mode)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(text, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok)
        chmod(path, mode);
    return ok ? 0 : -1;
}

/* The batch's cache of compiled kernels (gr_config.compile_cache). */
static void cache_of(const bt_options *opt, char *buf, size_t size)
{
    snprintf(buf, size, "%s/.compiled", opt->out);
}

/* The place of a student's report of one lab, kept so that a resumed batch can still write the
 * whole feedback file. */
static void part_path(const bt_options *opt, const char *file, const char *lab, const char *ext,
                      char *buf, size_t size)
{
    snprintf(buf, size, "%s/feedback/.parts/%s/%s.%s", opt->out, file, lab, ext);
}

/* A student's name in Markdown, as text, into buf: HTML's <, > and & as entities (no tag or
 * entity of the student's reaches a page), Markdown's marks behind a backslash. */
static void md_text(const char *s, char *buf, size_t size)
{
    size_t used = 0;
    for (; *s && used + 6 < size; ++s) {
        const char *as = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : NULL;
        if (as)
            used += (size_t)snprintf(buf + used, size - used, "%s", as);
        else if (strchr("\\`*_{}[]()#+-.!|~", *s))
            used += (size_t)snprintf(buf + used, size - used, "\\%c", *s);
        else
            buf[used++] = *s;
    }
    buf[used] = '\0';
}

/* The fence for a code block around the file at path: one backtick more than its longest run
 * of them, three at least, so that nothing in it (a quoted "```") can close the block early. */
static void fence_for(const char *path, char *fence, size_t size)
{
    size_t longest = 0, run = 0;
    FILE *in = fopen(path, "r");
    for (int c; in && (c = fgetc(in)) != EOF;) {
        run = c == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    if (in)
        fclose(in);
    size_t n = longest + 1 > 3 ? longest + 1 : 3;
    n = n < size ? n : size - 1;
    memset(fence, '`', n);
    fence[n] = '\0';
}

/* OUT/feedback/FILE.md from the reports of every lab of the student that has one. */
static void write_feedback(const bt_options *opt, const in_student *st, const char *file)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/feedback/%s.md", opt->out, file);
    FILE *out = fopen(path, "w");
    if (!out)
        return;
    char name[6 * sizeof st->name];
    md_text(st->name, name, sizeof name);
    fprintf(out, _("# Feedback for %s\n\n"), name);
    for (size_t i = 0; i < opt->nlabs; ++i) {
        char part[4400], fence[64];
        part_path(opt, file, opt->labs[i]->id, "txt", part, sizeof part);
        FILE *in = fopen(part, "r");
        if (!in)
            continue;
        fence_for(part, fence, sizeof fence);
        fprintf(out, _("## Lab %s %s: %s\n\n"), opt->labs[i]->id, opt->labs[i]->slug,
                opt->labs[i]->title);
        fprintf(out, "%stext\n", fence);
        char buf[8192];
        size_t n, last = '\n';
        while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
            fwrite(buf, 1, n, out);
            last = (unsigned char)buf[n - 1];
        }
        fclose(in);
        fprintf(out, "%s%s\n\n", last == '\n' ? "" : "\n", fence);
    }
    fclose(out);
}

/* OUT/results/FILE.json: Gradescope's results.json of the student, every lab's tests in one,
 * its score their sum, the feedback file's text as its output. */
static void write_results(const bt_options *opt, const char *file)
{
    cJSON *root = cJSON_CreateObject(), *tests = cJSON_AddArrayToObject(root, "tests");
    double score = 0;
    for (size_t i = 0; i < opt->nlabs; ++i) {
        char part[4400], why[256];
        part_path(opt, file, opt->labs[i]->id, "json", part, sizeof part);
        cJSON *one = wi_read_file(part, why, sizeof why), *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(one, "tests"))
        {
            cJSON_AddItemToArray(tests, cJSON_Duplicate(t, 1));
        }
        cJSON *s = cJSON_GetObjectItem(one, "score");
        score += cJSON_IsNumber(s) ? s->valuedouble : 0;
        cJSON_Delete(one);
    }
    cJSON_AddNumberToObject(root, "score", score);
    /* The whole feedback beside the tests, unless the course hides a part of some lab: then it
     * would show what the hidden parts hold back (each part carries its own output). */
    int hides = 0;
    for (size_t i = 0; i < opt->nlabs; ++i)
        for (int k = 1; k < 4; ++k)
            hides |= opt->labs[i]->visibility[k] && strcmp(opt->labs[i]->visibility[k], "visible");
    char path[4400], why[64];
    snprintf(path, sizeof path, "%s/feedback/%s.md", opt->out, file);
    size_t size;
    char *md = hides ? NULL : wi_read_bytes(path, (size_t)8 << 20, &size, why, sizeof why);
    if (!hides) {
        cJSON_AddStringToObject(root, "output", md ? md : "");
        cJSON_AddStringToObject(root, "output_format", "md");
    }
    free(md);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    snprintf(path, sizeof path, "%s/results/%s.json", opt->out, file);
    if (text)
        write_text(path, text, strlen(text), 0644);
    free(text);
}

/* A row decided without grading: a submission refused whole, a refused file, a missing one.
 * Returns its verdict with the reason in reason, or NULL when the lab is to be graded. */
static const char *not_graded(const bt_options *opt, const in_student *st, size_t lab, char *reason,
                              size_t size)
{
    const lab_spec *spec = opt->labs[lab];
    const in_kernel *k = &st->labs[lab];
    if (k->text && !st->problem[0])
        return NULL;
    if (st->problem[0])
        snprintf(reason, size, "%s", st->problem);
    else if (k->problem[0])
        snprintf(reason, size, "%s", k->problem);
    else
        snprintf(reason, size,
                 "no kernel file for lab %s (labs/%s-%s/kernel.cu, %s-%s.cu or %s.cu)%s%s",
                 spec->id, spec->id, spec->slug, spec->id, spec->slug, spec->id,
                 st->skipped[0] ? "; not looked into: " : "", st->skipped);
    /* a submission refused whole refuses every lab */
    return k->problem[0] || st->problem[0] ? "REFUSED" : "MISSING";
}

int bt_check(const bt_options *opt, FILE *out)
{
    in_batch b;
    char why[512];
    if (in_scan(opt->submissions, opt->labs, opt->nlabs, &b, why, sizeof why) != 0) {
        fprintf(stderr, "grade: %s\n", why);
        return CL_EXIT_USAGE;
    }
    size_t graded = 0, not = 0;
    for (size_t i = 0; i < b.n; ++i) {
        const in_student *st = &b.students[i];
        for (size_t lab = 0; lab < opt->nlabs; ++lab) {
            char reason[1024];
            const char *verdict = not_graded(opt, st, lab, reason, sizeof reason);
            if (!verdict) {
                fprintf(out, _("%-24s %s  graded     %s\n"), st->name, opt->labs[lab]->id,
                        st->labs[lab].origin);
                ++graded;
            } else {
                fprintf(out, "%-24s %s  %-9s  %s\n", st->name, opt->labs[lab]->id, verdict, reason);
                ++not ;
            }
        }
    }
    fprintf(out, _("%zu entries, %zu rows: %zu would be graded, %zu not\n"), b.n, graded + not,
            graded, not );
    in_free(&b);
    return not ? CL_EXIT_FAIL : CL_EXIT_OK;
}

/* Grades one lab of st into o: the file handed in, written to a work folder of its own, through
 * gr_grade_lab. Returns 0, or -1 when the work folder cannot be written (o untouched). */
static int grade_file(const gr_config *cfg, const bt_options *opt, const in_student *st, size_t lab,
                      unsigned serial, oc_outcome *o)
{
    const in_kernel *k = &st->labs[lab];
    char dir[4200], kernel[4300], labdir[4300];
    snprintf(dir, sizeof dir, "%s/s%05u", opt->workdir, serial);
    snprintf(kernel, sizeof kernel, "%s/submitted.cu", dir);
    snprintf(labdir, sizeof labdir, "%s/lab", dir);
    gr_config c = *cfg;
    c.kernel = kernel;
    c.progress = NULL; /* one line a row instead */
    c.cwd = NULL;
    /* Files handed in unchanged (a lab's stub, often) are compiled once a batch and resume:
     * only where no student code can write into the cache. */
    char cache[4300];
    cache_of(opt, cache, sizeof cache);
    if (cfg->confine_recording)
        c.compile_cache = cache;
    if (make_dir(dir) != 0 || write_text(kernel, k->text, k->size, 0600) != 0)
        return -1;
    gr_grade_lab(&c, opt->labs[lab], labdir, o);
    snprintf(o->kernel_path, sizeof o->kernel_path, "%s", k->origin); /* as handed in */
    if (!opt->keep)
        gr_remove_tree(dir);
    return 0;
}

/* The row, report and results of one lab of a student: from o where it was graded (verdict
 * NULL), else from verdict and reason. */
static void fill_row(const bt_options *opt, size_t lab, const char *verdict, const char *reason,
                     const oc_outcome *o, gb_row *row, char **report, char **results)
{
    const lab_spec *spec = opt->labs[lab];
    size_t size = 0;
    FILE *text = open_memstream(report, &size);
    row->max_score =
        spec->points_correct + spec->points_load + spec->points_store + spec->points_speed;
    row->speed = spec->points_speed > 0 ? 0 : -1;
    row->engine = "none";
    if (verdict) {
        row->verdict = verdict;
        row->reason = reason;
        if (text)
            fprintf(text, _("lab %s %s: %s, 0/%d\n  %s\n"), spec->id, spec->slug, row->verdict,
                    row->max_score, reason);
        *results = rp_gradescope_ungraded(spec, reason);
    } else {
        row->verdict = rp_verdict_word(o->verdict);
        row->correctness = o->score_correct;
        row->loads = o->score_load;
        row->stores = o->score_store;
        if (row->speed >= 0)
            row->speed = o->score_speed;
        row->score = o->score;
        row->max_score = o->max_score;
        row->engine = oc_engine_name(o->engine);
        row->reason = o->reason;
        if (text)
            rp_text_lab(text, o);
        *results = rp_gradescope(o, 1);
    }
    if (text)
        fclose(text);
}

static void say_time(FILE *out, double s)
{
    if (s < 90)
        fprintf(out, "%.0f s", s);
    else if (s < 5400)
        fprintf(out, "%.0f min", s / 60);
    else
        fprintf(out, "%.1f h", s / 3600);
}

/* ---- compiles ahead: the CPU's cores compile the next rows while the GPU measures one ---- */

typedef struct pending {
    size_t student, lab;
    pid_t pid; /* its compile ahead, while it runs; 0: none */
} pending;

/* Starts, in a child of its own, the compile of row r into the cache. */
static void compile_ahead(const gr_config *cfg, const bt_options *opt, const in_batch *b,
                          pending *row, size_t r)
{
    const in_student *st = &b->students[row->student];
    const in_kernel *k = &st->labs[row->lab];
    if (!k->text || st->problem[0])
        return; /* nothing to compile */
    char dir[4200], cache[4300];
    snprintf(dir, sizeof dir, "%s/a%05zu", opt->workdir, r);
    cache_of(opt, cache, sizeof cache);
    gr_config c = *cfg;
    c.compile_cache = cache;
    row->pid = gr_compile_ahead(&c, opt->labs[row->lab], dir, NULL, k->text, k->size);
}

static void wait_ahead(pending *row)
{
    gr_wait_ahead(row->pid);
    row->pid = 0;
}

/* ---- one worker per GPU ---- */

/* The K-th entry of CUDA_VISIBLE_DEVICES where it is set ("2,3": K=1 is 3), else K. */
static void gpu_name(unsigned k, char *buf, size_t size)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    snprintf(buf, size, "%u", k);
    for (unsigned i = 0; v && *v; ++i) {
        size_t n = strcspn(v, ",");
        if (i == k) {
            snprintf(buf, size, "%.*s", (int)n, v);
            return;
        }
        v += n + (v[n] == ',');
    }
}

/* Appends the rows of part (a gradebook) to book, without its header; 0, or -1. */
static int append_rows(FILE *book, const char *part, int with_header)
{
    FILE *in = fopen(part, "rb");
    if (!in)
        return -1;
    int c, line = 0;
    while ((c = fgetc(in)) != EOF) {
        if (line > 0 || with_header)
            fputc(c, book);
        if (c == '\n' && line == 0)
            line = 1; /* the header is one line: none of its fields holds a newline */
    }
    fclose(in);
    return ferror(book) ? -1 : 0;
}

static void copy_folder(const char *from, const char *to)
{
    DIR *d = opendir(from);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char a[4800], b[4800], why[64];
        snprintf(a, sizeof a, "%.4400s/%.256s", from, e->d_name);
        snprintf(b, sizeof b, "%.4400s/%.256s", to, e->d_name);
        size_t n = 0;
        char *bytes = wi_read_bytes(a, (size_t)64 << 20, &n, why, sizeof why);
        if (bytes)
            write_text(b, bytes, n, 0644);
        free(bytes);
    }
    if (d)
        closedir(d);
}

/* Runs opt's batch as opt->gpus workers, one a GPU, and joins what they wrote. */
static int run_on_gpus(const gr_config *cfg, const bt_options *opt, FILE *progress)
{
    char book_path[4300];
    snprintf(book_path, sizeof book_path, "%s/gradebook.csv", opt->out);
    if (!opt->resume && access(book_path, F_OK) == 0) {
        fprintf(stderr,
                "grade: '%s' exists: add --resume to go on with that batch, or choose another "
                "--output folder\n",
                book_path);
        return 2;
    }
    if (make_dir(opt->out) != 0) {
        fprintf(stderr, _("grade: cannot make the output folder '%s'\n"), opt->out);
        return 3;
    }
    if (progress)
        fprintf(progress, _("grade: one worker on each of %u GPUs\n"), opt->gpus);
    pid_t pids[64];
    unsigned n = opt->gpus < 64 ? opt->gpus : 64;
    fflush(NULL);
    for (unsigned k = 0; k < n; ++k) {
        pids[k] = fork();
        if (pids[k] == 0) {
            /* The subreaper mark is not inherited: each worker adopts, and stops, what its own
             * gradings leave running (runner.h). */
            rn_adopt_orphans();
            char gpu[32], out[4300], work[4300];
            gpu_name(k, gpu, sizeof gpu);
            setenv("CUDA_VISIBLE_DEVICES", gpu, 1);
            snprintf(out, sizeof out, "%s/gpu-%u", opt->out, k);
            snprintf(work, sizeof work, "%s/gpu-%u", opt->workdir, k);
            bt_options mine = *opt;
            mine.gpus = 1;
            /* each GPU's worker gets its share of the cores */
            unsigned share = pool_cores() / (2 * n);
            mine.slots = share < 1 ? 1 : share < opt->slots ? share : opt->slots;
            mine.shard = k;
            mine.shards = n;
            mine.out = out;
            mine.workdir = work;
            char book[4400];
            snprintf(book, sizeof book, "%s/gradebook.csv", out);
            mine.resume = access(book, F_OK) == 0; /* each worker goes on with its own */
            int status = make_dir(work) == 0 ? bt_run(cfg, &mine, progress) : 3;
            fflush(NULL);
            _exit(status);
        }
        if (pids[k] > 0)
            rn_spare(pids[k]);
    }
    int worst = 0;
    for (unsigned k = 0; k < n; ++k) {
        int st = 0;
        if (pids[k] <= 0) {
            worst = 3;
            continue;
        }
        while (waitpid(pids[k], &st, 0) < 0 && errno == EINTR)
            ;
        rn_unspare(pids[k]);
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : 3;
        worst = code > worst ? code : worst;
    }
    /* OUT/gradebook.csv made anew from the workers' (each resumable on its own). */
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.new", book_path);
    FILE *book = fopen(tmp, "wb");
    int joined = 0;
    for (unsigned k = 0; book && k < n; ++k) {
        char part[4400], dir[4400], to[4400];
        snprintf(part, sizeof part, "%s/gpu-%u/gradebook.csv", opt->out, k);
        if (append_rows(book, part, joined == 0) == 0)
            joined++;
        static const char *const sub[] = {"feedback", "results"};
        for (int i = 0; i < 2; ++i) {
            snprintf(dir, sizeof dir, "%s/gpu-%u/%s", opt->out, k, sub[i]);
            snprintf(to, sizeof to, "%s/%s", opt->out, sub[i]);
            make_dir(to);
            copy_folder(dir, to);
        }
    }
    if (!book || fclose(book) != 0 || rename(tmp, book_path) != 0) {
        fprintf(stderr, _("grade: cannot write '%s'\n"), book_path);
        return 3;
    }
    if (progress)
        fprintf(progress, _("grade: joined the gradebooks of %d of %u workers into %s\n"), joined,
                n, book_path);
    return joined == (int)n ? worst : (worst > 3 ? worst : 3);
}

/* ---- the rows of a batch, graded one after another or side by side ---- */

typedef struct batch_run {
    const gr_config *cfg;
    const bt_options *opt;
    const in_batch *b;
    FILE *book, *progress;
    pending *rows;
    size_t *left; /* each student's rows still to write */
    size_t todo, finished, failed;
    unsigned serial;
    double start;
    int status; /* 3 once the gradebook or feedback cannot be written */
    gl_lock gpu;
} batch_run;

static int student_has_rows(const pending *rows, size_t n, size_t student)
{
    for (size_t r = 0; r < n; ++r)
        if (rows[r].student == student)
            return 1;
    return 0;
}

/* The student's feedback and results files, from the parts of every lab of it written so far. */
static void student_done(batch_run *run, size_t student)
{
    char file[256];
    bt_file_name(run->b->students[student].name, file, sizeof file);
    write_feedback(run->opt, &run->b->students[student], file);
    write_results(run->opt, file);
}

/* A row is done: its report and results beside the feedback, its line in the gradebook, a line
 * of progress; the student's files once its last row is written. */
static void row_written(batch_run *run, const pending *p, gb_row *row, char *report, char *results)
{
    const bt_options *opt = run->opt;
    const in_student *st = &run->b->students[p->student];
    const lab_spec *spec = opt->labs[p->lab];
    char file[256], part[4400], json[4400], dir[4400];
    bt_file_name(st->name, file, sizeof file);
    snprintf(dir, sizeof dir, "%s/feedback/.parts/%s", opt->out, file);
    part_path(opt, file, spec->id, "txt", part, sizeof part);
    part_path(opt, file, spec->id, "json", json, sizeof json);
    if (make_dir(dir) != 0 || !report || !results ||
        write_text(part, report, strlen(report), 0644) != 0 ||
        write_text(json, results, strlen(results), 0644) != 0 || gb_write(run->book, row) != 0) {
        fprintf(stderr, _("grade: cannot write the gradebook or feedback in '%s'\n"), opt->out);
        run->status = 3;
    }
    free(report);
    free(results);
    run->failed += strcmp(row->verdict, "PASS") != 0;
    run->finished++;
    if (run->progress) {
        double spent = rn_now_s() - run->start, each = spent / (double)run->finished;
        fprintf(run->progress, _("[%zu/%zu] %s, lab %s: %s %d/%d (%.1f s"), run->finished,
                run->todo, st->name, spec->id, row->verdict, row->score, row->max_score,
                row->seconds);
        if (run->finished < run->todo) {
            fprintf(run->progress, _("; about "));
            say_time(run->progress, each * (double)(run->todo - run->finished));
            fprintf(run->progress, _(" left"));
        }
        fprintf(run->progress, ")\n");
        fflush(run->progress);
    }
    if (--run->left[p->student] == 0 && run->status < 2)
        student_done(run, p->student);
}

/* A row whose work folder cannot be written: NOT GRADED, and why. */
static const char *unwritable(const batch_run *run, char *reason, size_t size)
{
    snprintf(reason, size, _("the grader cannot write its work folder in '%.900s'"),
             run->opt->workdir);
    return "NOT GRADED";
}

/* One row after another, the next rows' compiles running on the other cores meanwhile. */
static void in_turn(batch_run *run, size_t nrows)
{
    size_t ahead = run->cfg->confine_recording ? gr_compiles_ahead() : 0;
    for (size_t r = 0; r < nrows && run->status < 2; ++r) {
        for (size_t a = r + 1; a < nrows && a <= r + ahead; ++a)
            if (!run->rows[a].pid)
                compile_ahead(run->cfg, run->opt, run->b, &run->rows[a], a);
        wait_ahead(&run->rows[r]);
        const pending *p = &run->rows[r];
        const in_student *st = &run->b->students[p->student];
        double t = rn_now_s();
        gb_row row = {.student = st->name, .lab = run->opt->labs[p->lab]->id};
        char *report = NULL, *results = NULL;
        static char reason[1024];
        static oc_outcome o;
        memset(&o, 0, sizeof o);
        const char *verdict = not_graded(run->opt, st, p->lab, reason, sizeof reason);
        if (!verdict && grade_file(run->cfg, run->opt, st, p->lab, run->serial++, &o) != 0) {
            verdict = unwritable(run, reason, sizeof reason);
        }
        fill_row(run->opt, p->lab, verdict, reason, &o, &row, &report, &results);
        row.seconds = rn_now_s() - t;
        row_written(run, p, &row, report, results);
        oc_free(&o);
    }
    for (size_t r = 0; r < nrows; ++r) { /* after an error: what still compiles */
        if (run->rows[r].pid > 0)
            kill(run->rows[r].pid, SIGKILL);
        wait_ahead(&run->rows[r]);
    }
}

static void row_outcome_path(const batch_run *run, size_t r, char *buf, size_t size)
{
    snprintf(buf, size, "%s/row-%05zu.bin", run->opt->workdir, r);
}

/* In a process of its own: row r graded, its outcome into a file (exit 0), or CL_EXIT_IO when
 * its work folder cannot be written. A row decided without grading does nothing here. */
static int grade_row_apart(void *ctx, size_t r, gl_lock *gpu)
{
    batch_run *run = ctx;
    const pending *p = &run->rows[r];
    const in_student *st = &run->b->students[p->student];
    char reason[1024], path[4400];
    if (not_graded(run->opt, st, p->lab, reason, sizeof reason))
        return 0;
    gr_config c = *run->cfg;
    c.gpu = gpu;
    static oc_outcome o;
    if (grade_file(&c, run->opt, st, p->lab, (unsigned)r, &o) != 0)
        return CL_EXIT_IO;
    row_outcome_path(run, r, path, sizeof path);
    return pool_save_outcome(path, &o) == 0 ? 0 : CL_EXIT_IO;
}

/* Here, as row r ends: its row from the outcome it left. Nonzero once the gradebook or feedback
 * cannot be written: no more rows are started then. */
static int row_ended(void *ctx, size_t r, int status)
{
    batch_run *run = ctx;
    const pending *p = &run->rows[r];
    const in_student *st = &run->b->students[p->student];
    gb_row row = {.student = st->name, .lab = run->opt->labs[p->lab]->id};
    char *report = NULL, *results = NULL, path[4400];
    static char reason[1024];
    static oc_outcome o;
    memset(&o, 0, sizeof o);
    row_outcome_path(run, r, path, sizeof path);
    const char *verdict = not_graded(run->opt, st, p->lab, reason, sizeof reason);
    if (!verdict && status == CL_EXIT_IO) {
        verdict = unwritable(run, reason, sizeof reason);
    } else if (!verdict && (status != 0 || pool_load_outcome(path, &o) != 0)) {
        verdict = "NOT GRADED";
        snprintf(reason, sizeof reason,
                 "the grader's process for this row ended before it was done (exit %d): a fault "
                 "of the grader, not of the kernel; grade it again with --resume",
                 status);
    }
    remove(path);
    fill_row(run->opt, p->lab, verdict, reason, &o, &row, &report, &results);
    row.seconds = o.total_s;
    row_written(run, p, &row, report, results);
    oc_free(&o);
    return run->status >= 2;
}

/* opt->slots rows at once, each in a process of its own (pool.h), sharing the GPU through a
 * lock that leaves the measured sections alone on it. */
static void side_by_side(batch_run *run, size_t nrows)
{
    if (gl_create(run->opt->workdir, &run->gpu) != 0) {
        in_turn(run, nrows); /* no lock here (a file system without flock) */
        return;
    }
    pool_run(nrows, run->opt->slots, &run->gpu, grade_row_apart, row_ended, run);
    gl_close(&run->gpu);
}

int bt_run(const gr_config *cfg, const bt_options *opt, FILE *progress)
{
    if (opt->gpus > 1 && !opt->shards)
        return run_on_gpus(cfg, opt, progress);
    char why[1024];
    in_batch b;
    if (in_scan(opt->submissions, opt->labs, opt->nlabs, &b, why, sizeof why) != 0) {
        fprintf(stderr, "grade: %s\n", why);
        return 2;
    }
    if (b.n == 0) {
        fprintf(stderr,
                "grade: no submissions in '%s': it needs one folder or archive (.zip, .tar, "
                ".tar.gz, .tgz) per student\n",
                opt->submissions);
        in_free(&b);
        return 2;
    }
    char path[4300];
    if (opt->shards) { /* this share of the batch only */
        size_t kept = 0;
        for (size_t i = 0; i < b.n; ++i) {
            if (i % opt->shards == opt->shard)
                b.students[kept++] = b.students[i];
            else
                for (int k = 0; k < IN_MAX_LABS; ++k)
                    free(b.students[i].labs[k].text);
        }
        b.n = kept;
    }
    snprintf(path, sizeof path, "%s/feedback/.parts", opt->out);
    char feedback[4300], results[4300];
    snprintf(feedback, sizeof feedback, "%s/feedback", opt->out);
    snprintf(results, sizeof results, "%s/results", opt->out);
    if (make_dir(opt->out) != 0 || make_dir(feedback) != 0 || make_dir(path) != 0 ||
        make_dir(results) != 0) {
        fprintf(stderr, _("grade: cannot make the output folder '%s': %s\n"), opt->out,
                strerror(errno));
        in_free(&b);
        return 3;
    }
    snprintf(path, sizeof path, "%s/gradebook.csv", opt->out);
    gb_done done;
    FILE *book = gb_open(path, opt->resume, &done, why, sizeof why);
    if (!book) {
        fprintf(stderr, "grade: %s\n", why);
        in_free(&b);
        return 2;
    }
    size_t total = b.n * opt->nlabs, todo = 0;
    for (size_t i = 0; i < b.n; ++i)
        for (size_t l = 0; l < opt->nlabs; ++l)
            todo += !gb_has(&done, b.students[i].name, opt->labs[l]->id);
    if (progress)
        fprintf(progress, _("grade: %zu submissions x %zu labs: %zu rows to grade%s, into %s\n"),
                b.n, opt->nlabs, todo, todo < total ? _(" (the others were graded before)") : "",
                opt->out);
    /* The rows to grade, in order. */
    pending *rows = calloc(todo ? todo : 1, sizeof *rows);
    size_t *left = calloc(b.n ? b.n : 1, sizeof *left); /* each student's rows still to write */
    size_t nrows = 0;
    for (size_t i = 0; rows && left && i < b.n; ++i)
        for (size_t l = 0; l < opt->nlabs; ++l)
            if (!gb_has(&done, b.students[i].name, opt->labs[l]->id)) {
                rows[nrows++] = (pending){i, l, 0};
                left[i]++;
            }
    batch_run run = {.cfg = cfg,
                     .opt = opt,
                     .b = &b,
                     .book = book,
                     .progress = progress,
                     .rows = rows,
                     .left = left,
                     .todo = todo,
                     .start = rn_now_s()};
    if (!rows || !left)
        run.status = 3;
    else if (opt->slots > 1 && nrows > 1)
        side_by_side(&run, nrows);
    else
        in_turn(&run, nrows);
    /* Students with nothing left to grade get their files anew unless the batch goes on. */
    for (size_t i = 0; left && i < b.n && !opt->resume && run.status < 2; ++i)
        if (!student_has_rows(rows, nrows, i))
            student_done(&run, i);
    free(rows);
    free(left);
    size_t finished = run.finished, failed = run.failed;
    double start = run.start;
    int status = run.status;
    fclose(book);
    gb_done_free(&done);
    in_free(&b);
    if (progress && status < 2) {
        double spent = rn_now_s() - start;
        fprintf(progress, _("grade: %zu rows graded in "), finished);
        say_time(progress, spent);
        if (finished)
            fprintf(progress, _(" (%.1f s a row)"), spent / (double)finished);
        fprintf(progress, _("; %zu did not pass. Gradebook: %s/gradebook.csv; feedback: %s/\n"),
                failed, opt->out, feedback);
    }
    if (status)
        return status;
    return failed ? 1 : 0;
}
