/*
 * sassscan.h - reads the SASS that the GPU runs (the text of `cuobjdump -sass FILE.cubin`, or
 * of `nvdisasm -c`) into a listing: every function's instructions, each with its offset, its
 * opcode and what kind of memory access it is. The grader refuses, by name, device code that
 * moves global memory where none of its engines looks (cp.async, bulk copies, the tensor
 * memory accelerator, textures, surfaces): the trace patches ordinary global loads, stores
 * and atomics only, and the counters are checked against those. Deciding from the SASS, not
 * from the PTX, leaves nothing to a text trick such as a label before the instruction.
 *
 * Pure C: the grader reads cuobjdump's output before any student code runs.
 */
#ifndef CL_SASSSCAN_H
#define CL_SASSSCAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What an instruction does with memory, by its opcode (the part before the first '.'). */
typedef enum ss_class {
    SS_OTHER,         /* no global memory: arithmetic, shared, local, constant, CCTL prefetch */
    SS_GLOBAL_LOAD,   /* LDG */
    SS_GLOBAL_STORE,  /* STG */
    SS_GLOBAL_ATOMIC, /* ATOMG, REDG */
    SS_GENERIC,       /* LD, ST, ATOM, RED: generic addresses, which may be global memory */
    SS_UNMEASURED,    /* global memory moved where the grader's engines do not look: LDGSTS,
                         UBLK*, UTMA*, texture (TEX, TLD, ...), surface (SU*), LDGMC */
    SS_CLASSES        /* how many classes there are */
} ss_class;

typedef struct ss_instruction {
    unsigned long pc; /* bytes from its function's start: the hex number that opens the line */
    char *opcode;     /* with its modifiers: "LDG.E.128.CONSTANT" (no predicate) */
    ss_class cls;
} ss_instruction;

typedef struct ss_function {
    char *name;           /* as cuobjdump names it (mangled); "" for code before any name */
    ss_instruction *code; /* in order of pc */
    size_t count;
} ss_function;

typedef struct ss_listing {
    ss_function *functions; /* in the order of the text */
    size_t count;
    size_t per_class[SS_CLASSES]; /* instructions of each class, all functions together */
} ss_listing;

/* Reads size bytes of text (need not end in NUL). Lines that are not a function's heading
 * ("Function : NAME", or nvdisasm's ".section .text.NAME") or an instruction (its offset in
 * hex between comment marks, an optional predicate such as "@!PT", the opcode) are skipped, so any
 * text is read, garbage too. Returns a listing that the caller frees with ss_free, or NULL when
 * memory ran out. */
ss_listing *ss_parse(const char *text, size_t size);

void ss_free(ss_listing *listing);

/* The class of the instruction at pc in the function of that name (the first of that name),
 * or -1 when there is no such function or no instruction there. */
int ss_class_at(const ss_listing *listing, const char *function, unsigned long pc);

/* How many instructions of class cls the listing holds; 0 for a class out of range. */
size_t ss_count(const ss_listing *listing, ss_class cls);

/* Returns 0 when the listing holds no SS_UNMEASURED instruction; 1 when it does, with why
 * filled for the first: its opcode, what it is in CUDA terms, its function and offset, and
 * what to use instead, in a sentence that follows "it ...". */
int ss_refusal(const ss_listing *listing, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
