/* dlsym_x86_64.S — the exported dlsym of libdfshim-dlsym.so (see dlsym.c).
 *
 * glibc's dlsym finds the object that called it from its return address: RTLD_NEXT means "after
 * the caller", RTLD_DEFAULT searches the caller's scopes.  So those two are passed on with a
 * tail jump (the return address on the stack stays the caller's), and only lookups in an
 * explicit handle go to C (dfs_dlsym_explicit, also by a jump: it sees the caller too). */
        .text
        .globl  dlsym
        .type   dlsym, @function
dlsym:
        .cfi_startproc
        endbr64
        cmpq    $-1, %rdi               /* RTLD_NEXT */
        je      .Lcaller_scope
        testq   %rdi, %rdi              /* RTLD_DEFAULT */
        je      .Lcaller_scope
        jmp     dfs_dlsym_explicit
.Lcaller_scope:
        movq    dfs_real_dlsym(%rip), %rax
        testq   %rax, %rax
        jz      .Linit
        jmp     *%rax
.Linit:                                 /* first use before the constructor ran */
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        subq    $8, %rsp                /* 16-byte alignment at the call */
        .cfi_adjust_cfa_offset 8
        call    dfs_dlsym_init
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        movq    dfs_real_dlsym(%rip), %rax
        testq   %rax, %rax
        jz      .Lnone
        jmp     *%rax
.Lnone:
        xorl    %eax, %eax
        ret
        .cfi_endproc
        .size   dlsym, .-dlsym

        .section .note.GNU-stack, "", @progbits
