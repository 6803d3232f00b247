/* batch.c - see batch.h. */
#define _GNU_SOURCE
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

#include "gradebook.h"
#include "intake.h"
#include "outcome.h"
#include "report.h"
#include "runner.h"
#include "wire.h"

void bt_file_name(const char *name, char *buf, size_t size)
{
    size_t i = 0;
    int changed = 0;
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the whole name */
    for (const unsigned char *p = (const unsigned char *)name; *p; ++p)
        h = (h ^ *p) * 1099511628211ull;
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

/* OUT/feedback/FILE.md from the reports of every lab of the student that has one. */
static void write_feedback(const bt_options *opt, const in_student *st, const char *file)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/feedback/%s.md", opt->out, file);
    FILE *out = fopen(path, "w");
    if (!out)
        return;
    fprintf(out, "# Feedback for %s\n\n", st->name);
    for (size_t i = 0; i < opt->nlabs; ++i) {
        char part[4400];
        part_path(opt, file, opt->labs[i]->id, "txt", part, sizeof part);
        FILE *in = fopen(part, "r");
        if (!in)
            continue;
        fprintf(out, "## Lab %s %s: %s\n\n```text\n", opt->labs[i]->id, opt->labs[i]->slug,
                opt->labs[i]->title);
        char buf[8192];
        size_t n, last = '\n';
        while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
            fwrite(buf, 1, n, out);
            last = (unsigned char)buf[n - 1];
        }
        fclose(in);
        fprintf(out, "%s```\n\n", last == '\n' ? "" : "\n");
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
    char path[4400], why[64];
    snprintf(path, sizeof path, "%s/feedback/%s.md", opt->out, file);
    size_t size;
    char *md = wi_read_bytes(path, (size_t)8 << 20, &size, why, sizeof why);
    cJSON_AddStringToObject(root, "output", md ? md : "");
    cJSON_AddStringToObject(root, "output_format", "md");
    free(md);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    snprintf(path, sizeof path, "%s/results/%s.json", opt->out, file);
    if (text)
        write_text(path, text, strlen(text), 0644);
    free(text);
}

/* One lab of one student graded (or refused, or missing) into row, its report into report. */
static void grade_one(const gr_config *cfg, const bt_options *opt, const in_student *st, size_t lab,
                      unsigned serial, gb_row *row, char **report, char **results, oc_outcome *o)
{
    const lab_spec *spec = opt->labs[lab];
    const in_kernel *k = &st->labs[lab];
    static char reason[1024];
    size_t size = 0;
    FILE *text = open_memstream(report, &size);
    memset(o, 0, sizeof *o);
    row->max_score =
        spec->points_correct + spec->points_load + spec->points_store + spec->points_speed;
    row->speed = spec->points_speed > 0 ? 0 : -1;
    row->engine = "none";
    if (!k->text || st->problem[0]) { /* a submission refused whole refuses every lab */
        row->verdict = k->problem[0] || st->problem[0] ? "REFUSED" : "MISSING";
        if (st->problem[0])
            snprintf(reason, sizeof reason, "%s", st->problem);
        else if (k->problem[0])
            snprintf(reason, sizeof reason, "%s", k->problem);
        else
            snprintf(reason, sizeof reason,
                     "no kernel file for lab %s (labs/%s-%s/kernel.cu, %s-%s.cu or %s.cu)",
                     spec->id, spec->id, spec->slug, spec->id, spec->slug, spec->id);
        row->reason = reason;
        if (text)
            fprintf(text, "lab %s %s: %s, 0/%d\n  %s\n", spec->id, spec->slug, row->verdict,
                    row->max_score, reason);
        *results = rp_gradescope_ungraded(spec, reason);
    } else {
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
        if (make_dir(dir) != 0 || write_text(kernel, k->text, k->size, 0600) != 0) {
            row->verdict = "NOT GRADED";
            snprintf(reason, sizeof reason, "the grader cannot write its work folder '%.900s'",
                     dir);
            row->reason = reason;
            *results = rp_gradescope_ungraded(spec, reason);
        } else {
            gr_grade_lab(&c, spec, labdir, o);
            snprintf(o->kernel_path, sizeof o->kernel_path, "%s", k->origin); /* as handed in */
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
        if (!opt->keep)
            gr_remove_tree(dir);
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
        fprintf(stderr, "grade: cannot make the output folder '%s'\n", opt->out);
        return 3;
    }
    if (progress)
        fprintf(progress, "grade: one worker on each of %u GPUs\n", opt->gpus);
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
        fprintf(stderr, "grade: cannot write '%s'\n", book_path);
        return 3;
    }
    if (progress)
        fprintf(progress, "grade: joined the gradebooks of %d of %u workers into %s\n", joined, n,
                book_path);
    return joined == (int)n ? worst : (worst > 3 ? worst : 3);
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
        fprintf(stderr, "grade: cannot make the output folder '%s': %s\n", opt->out,
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
    size_t total = b.n * opt->nlabs, todo = 0, finished = 0, failed = 0;
    for (size_t i = 0; i < b.n; ++i)
        for (size_t l = 0; l < opt->nlabs; ++l)
            todo += !gb_has(&done, b.students[i].name, opt->labs[l]->id);
    if (progress)
        fprintf(progress, "grade: %zu submissions x %zu labs: %zu rows to grade%s, into %s\n", b.n,
                opt->nlabs, todo, todo < total ? " (the others were graded before)" : "", opt->out);
    /* The rows to grade, in order, and how far ahead their compiles may start. */
    pending *rows = calloc(todo ? todo : 1, sizeof *rows);
    size_t nrows = 0, current = 0, ahead = cfg->confine_recording ? gr_compiles_ahead() : 0;
    for (size_t i = 0; rows && i < b.n; ++i)
        for (size_t l = 0; l < opt->nlabs; ++l)
            if (!gb_has(&done, b.students[i].name, opt->labs[l]->id))
                rows[nrows++] = (pending){i, l, 0};
    double start = rn_now_s();
    int status = 0;
    unsigned serial = 0;
    for (size_t i = 0; i < b.n && status < 2; ++i) {
        const in_student *st = &b.students[i];
        char file[256];
        bt_file_name(st->name, file, sizeof file);
        int wrote = 0;
        for (size_t l = 0; l < opt->nlabs && status < 2; ++l) {
            const lab_spec *spec = opt->labs[l];
            if (gb_has(&done, st->name, spec->id))
                continue;
            for (size_t r = current + 1; rows && r < nrows && r <= current + ahead; ++r)
                if (!rows[r].pid)
                    compile_ahead(cfg, opt, &b, &rows[r], r);
            if (rows && current < nrows)
                wait_ahead(&rows[current]);
            current++;
            double t = rn_now_s();
            gb_row row = {.student = st->name, .lab = spec->id};
            char *report = NULL, *results = NULL;
            static oc_outcome o;
            grade_one(cfg, opt, st, l, serial++, &row, &report, &results, &o);
            row.seconds = rn_now_s() - t;
            char part[4400], json[4400], dir[4400];
            snprintf(dir, sizeof dir, "%s/feedback/.parts/%s", opt->out, file);
            part_path(opt, file, spec->id, "txt", part, sizeof part);
            part_path(opt, file, spec->id, "json", json, sizeof json);
            if (make_dir(dir) != 0 || !report || !results ||
                write_text(part, report, strlen(report), 0644) != 0 ||
                write_text(json, results, strlen(results), 0644) != 0 ||
                gb_write(book, &row) != 0) {
                fprintf(stderr, "grade: cannot write the gradebook or feedback in '%s'\n",
                        opt->out);
                status = 3;
            }
            free(report);
            free(results);
            failed += strcmp(row.verdict, "PASS") != 0;
            wrote = 1;
            finished++;
            if (progress) {
                double spent = rn_now_s() - start, each = spent / (double)finished;
                fprintf(progress, "[%zu/%zu] %s, lab %s: %s %d/%d (%.1f s", finished, todo,
                        st->name, spec->id, row.verdict, row.score, row.max_score, row.seconds);
                if (finished < todo) {
                    fprintf(progress, "; about ");
                    say_time(progress, each * (double)(todo - finished));
                    fprintf(progress, " left");
                }
                fprintf(progress, ")\n");
                fflush(progress);
            }
            oc_free(&o);
        }
        if (wrote || !opt->resume) {
            write_feedback(opt, st, file);
            write_results(opt, file);
        }
    }
    for (size_t r = 0; rows && r < nrows; ++r) { /* after an error: what still compiles */
        if (rows[r].pid > 0)
            kill(rows[r].pid, SIGKILL);
        wait_ahead(&rows[r]);
    }
    free(rows);
    fclose(book);
    gb_done_free(&done);
    in_free(&b);
    if (progress && status < 2) {
        double spent = rn_now_s() - start;
        fprintf(progress, "grade: %zu rows graded in ", finished);
        say_time(progress, spent);
        if (finished)
            fprintf(progress, " (%.1f s a row)", spent / (double)finished);
        fprintf(progress, "; %zu did not pass. Gradebook: %s/gradebook.csv; feedback: %s/\n",
                failed, opt->out, feedback);
    }
    if (status)
        return status;
    return failed ? 1 : 0;
}
