	.text
	.file	"LLVMDialectModule"
	.globl	broadcast_maximum_fusion        # -- Begin function broadcast_maximum_fusion
	.p2align	4, 0x90
	.type	broadcast_maximum_fusion,@function
broadcast_maximum_fusion:               # @broadcast_maximum_fusion
	.cfi_startproc
# %bb.0:
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	pushq	%rax
	.cfi_def_cfa_offset 64
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	%rcx, %r14
	movq	%rdx, %r15
	movq	%rdi, %rbx
	movq	112(%rsp), %r12
	movq	72(%rsp), %r13
	movq	64(%rsp), %rbp
	movl	$16448, %edi                    # imm = 0x4040
	callq	malloc@PLT
	leaq	63(%rax), %rdx
	andq	$-64, %rdx
	movl	$128, %esi
	xorl	%r8d, %r8d
	leaq	(%r15,%r14,4), %r9
	movq	96(%rsp), %rcx
	movq	88(%rsp), %rdi
	leaq	(%rdi,%rcx,4), %r10
	xorps	%xmm0, %xmm0
	xorl	%r11d, %r11d
	jmp	.LBB0_1
	.p2align	4, 0x90
.LBB0_5:                                #   in Loop: Header=BB0_1 Depth=1
	incq	%r11
	addq	$512, %r8                       # imm = 0x200
.LBB0_1:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_4 Depth 2
	cmpq	$31, %r11
	jg	.LBB0_6
# %bb.2:                                #   in Loop: Header=BB0_1 Depth=1
	movq	%r11, %r14
	imulq	%rbp, %r14
	leaq	(%rdx,%r8), %r15
	xorl	%edi, %edi
	cmpq	$127, %rdi
	jg	.LBB0_5
	.p2align	4, 0x90
.LBB0_4:                                #   Parent Loop BB0_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	movq	%rdi, %rcx
	imulq	%r13, %rcx
	addq	%r14, %rcx
	movss	(%r9,%rcx,4), %xmm1             # xmm1 = mem[0],zero,zero,zero
	movq	%rdi, %rcx
	imulq	%r12, %rcx
	addss	(%r10,%rcx,4), %xmm1
	movaps	%xmm1, %xmm2
	cmpunordss	%xmm1, %xmm2
	movaps	%xmm2, %xmm3
	andps	%xmm1, %xmm3
	maxss	%xmm0, %xmm1
	andnps	%xmm1, %xmm2
	orps	%xmm3, %xmm2
	movss	%xmm2, (%r15,%rdi,4)
	incq	%rdi
	cmpq	$127, %rdi
	jle	.LBB0_4
	jmp	.LBB0_5
.LBB0_6:
	movq	%rax, (%rbx)
	movq	%rdx, 8(%rbx)
	movl	$32, %eax
	movq	%rax, 24(%rbx)
	movq	%rsi, 32(%rbx)
	movq	%rsi, 40(%rbx)
	movl	$1, %eax
	movq	%rax, 48(%rbx)
	movq	$0, 16(%rbx)
	movq	%rbx, %rax
	addq	$8, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end0:
	.size	broadcast_maximum_fusion, .Lfunc_end0-broadcast_maximum_fusion
	.cfi_endproc
                                        # -- End function
	.section	".note.GNU-stack","",@progbits
