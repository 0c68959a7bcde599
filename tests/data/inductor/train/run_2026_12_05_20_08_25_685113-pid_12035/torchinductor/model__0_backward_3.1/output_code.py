# AOT ID: ['0_backward']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
from torch._inductor.runtime.runtime_utils import assert_tensor_metadata

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_size_stride_grouped = torch._C._dynamo.guards.assert_size_stride_grouped
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


cpp_fused__log_softmax_backward_data_0 = async_compile.cpp_pybinding(['const float*', 'const float*', 'float*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0,
                       const float* in_ptr1,
                       float* out_ptr0,
                       float* out_ptr1)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
        {
            {
                float tmp_acc0 = 0;
                at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(10L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(10L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                            tmp_acc0_vec = sum_masked_reduce(tmp_acc0_vec, tmp0, static_cast<int64_t>(10L));
                        }
                    }
                }
                tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec);
                out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
            }
            for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(10L); x1+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(10L)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                        auto tmp1 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                        auto tmp3 = out_ptr0[static_cast<int64_t>(x0)];
                        auto tmp2 = tmp1.exp();
                        auto tmp4 = at::vec::Vectorized<float>(tmp3);
                        auto tmp5 = tmp2 * tmp4;
                        auto tmp6 = tmp0 - tmp5;
                        tmp6.store(out_ptr1 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
''')


cpp_fused_max_pool2d_with_indices_max_pool2d_with_indices_backward_view_1 = async_compile.cpp_pybinding(['const int8_t*', 'int64_t*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const int8_t* in_ptr0,
                       int64_t* out_ptr0,
                       float* out_ptr1)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(32L); x0+=static_cast<int64_t>(1L))
            {
                #pragma GCC ivdep
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(8L); x1+=static_cast<int64_t>(1L))
                {
                    for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(8L); x2+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x2 >= static_cast<int64_t>(0L) && x2 < static_cast<int64_t>(8L)))
                            {
                                auto tmp0 = at::vec::Vectorized<int8_t>::loadu(in_ptr0 + static_cast<int64_t>(x2 + 8L*x1 + 64L*x0), static_cast<int64_t>(8L));
                                auto tmp1 = 4L;
                                auto tmp2 = c10::convert<int64_t>(tmp1);
                                auto tmp3 = at::vec::convert<int64_t,2,int8_t,1>(tmp0);
                                auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp2);
                                auto tmp5 = tmp3 + tmp4;
                                auto tmp6 = static_cast<int64_t>(0);
                                auto tmp7 = at::vec::VectorizedN<int64_t,2>(tmp6);
                                auto tmp8 = at::vec::VecMask<int64_t,2>(tmp3 < tmp7);
                                auto tmp9 = decltype(tmp5)::blendv(tmp3, tmp5, inductor_vec_mask_cast<int64_t,2>(tmp8));
                                auto tmp10 =
                                [&]
                                {
                                    __at_align__ std::array<int64_t, 16> tmpbuf;
                                    tmp9.store(tmpbuf.data(), static_cast<int64_t>(8L));
                                    return tmpbuf;
                                }
                                ()
                                ;
                                auto tmp11 =
                                [&]
                                {
                                    __at_align__ std::array<int64_t, 16> tmpbuf;
                                    #pragma GCC unroll 16
                                    for (long x2_inner = 0; x2_inner < static_cast<int64_t>(8L); x2_inner++)
                                    {
                                        tmpbuf[x2_inner] = static_cast<int64_t>(tmp10[x2_inner]);
                                    }
                                    return at::vec::VectorizedN<int64_t,2>::loadu(tmpbuf.data(), static_cast<int64_t>(8L));
                                }
                                ()
                                ;
                                TORCH_CHECK((at::vec::VecMask<int64_t,2>::set(at::vec::VecMask<int64_t,2>::from(1), (at::vec::VecMask<int64_t,2>((at::vec::VectorizedN<int64_t,2>(0) <= tmp11) & (tmp11 < at::vec::VectorizedN<int64_t,2>(4L)))), static_cast<int64_t>(8L))).all_masked(), "index out of bounds: 0 <= tmp11 < 4L");
                                auto tmp13 =
                                [&]
                                {
                                    __at_align__ std::array<int64_t, 16> tmpbuf;
                                    #pragma GCC unroll 16
                                    for (long x2_inner = 0; x2_inner < static_cast<int64_t>(8L); x2_inner++)
                                    {
                                        tmpbuf[x2_inner] = static_cast<int64_t>(tmp10[x2_inner] + 2L*x2 + 2L*x2_inner + 14L*(c10::div_floor_integer(static_cast<int64_t>(tmp10[x2_inner]), static_cast<int64_t>(2L))) + 32L*x1);
                                    }
                                    return at::vec::VectorizedN<int64_t,2>::loadu(tmpbuf.data(), static_cast<int64_t>(8L));
                                }
                                ()
                                ;
                                tmp13.store(out_ptr0 + static_cast<int64_t>(x2 + 8L*x1 + 64L*x0), static_cast<int64_t>(8L));
                            }
                        }
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8192L); x0+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(8192L)))
                    {
                        auto tmp0 = static_cast<float>(0.0);
                        auto tmp1 = at::vec::Vectorized<float>(tmp0);
                        tmp1.store(out_ptr1 + static_cast<int64_t>(x0));
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
''')


cpp_fused__native_batch_norm_legit_functional_max_pool2d_with_indices_backward_native_batch_norm_backward_relu_threshold_backward_2 = async_compile.cpp_pybinding(['float*', 'const float*', 'const float*', 'const float*', 'const float*', 'const float*', 'float*', 'float*', 'float*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(float* in_out_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       const float* in_ptr5,
                       float* out_ptr0,
                       float* out_ptr1,
                       float* out_ptr2,
                       float* out_ptr3)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto in_ptr0 = in_out_ptr0;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(8L); x1+=static_cast<int64_t>(16L))
                {
                    for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(256L); x2+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(8L) && x2 >= static_cast<int64_t>(0) && x2 < static_cast<int64_t>(256L)))
                            {
                                alignas(std::max(std::size_t(16), alignof(float))) float tmp0[16*16];
                                transpose_mxn<float,static_cast<int64_t>(16),static_cast<int64_t>(8L),false>(in_ptr0 + static_cast<int64_t>(x1 + 8L*x2 + 2048L*x0), static_cast<int64_t>(8L), tmp0, static_cast<int64_t>(16));
                                for (long x1_inner = 0; x1_inner < static_cast<int64_t>(8L); x1_inner++)
                                {
                                    auto tmp1 = at::vec::Vectorized<float>::loadu(tmp0 + static_cast<int64_t>(16L*x1_inner), static_cast<int64_t>(16));
                                    auto tmp2 = in_ptr1[static_cast<int64_t>(x1 + x1_inner)];
                                    auto tmp5 = in_ptr2[static_cast<int64_t>(x1 + x1_inner)];
                                    auto tmp8 = in_ptr3[static_cast<int64_t>(x1 + x1_inner)];
                                    auto tmp11 = in_ptr4[static_cast<int64_t>(x1 + x1_inner)];
                                    auto tmp18 = at::vec::Vectorized<float>::loadu(in_ptr5 + static_cast<int64_t>(x2 + 256L*x1 + 256L*x1_inner + 2048L*x0), static_cast<int64_t>(16));
                                    auto tmp3 = at::vec::Vectorized<float>(tmp2);
                                    auto tmp4 = tmp1 - tmp3;
                                    auto tmp6 = at::vec::Vectorized<float>(tmp5);
                                    auto tmp7 = tmp4 * tmp6;
                                    auto tmp9 = at::vec::Vectorized<float>(tmp8);
                                    auto tmp10 = tmp7 * tmp9;
                                    auto tmp12 = at::vec::Vectorized<float>(tmp11);
                                    auto tmp13 = tmp10 + tmp12;
                                    auto tmp14 = at::vec::clamp_min(tmp13, decltype(tmp13)(0));
                                    auto tmp15 = static_cast<float>(0.0);
                                    auto tmp16 = at::vec::Vectorized<float>(tmp15);
                                    auto tmp17 = at::vec::VecMask<float,1>(tmp14 <= tmp16);
                                    auto tmp19 = decltype(tmp16)::blendv(tmp18, tmp16, inductor_vec_mask_cast<float,1>(tmp17));
                                    tmp19.store(out_ptr0 + static_cast<int64_t>(x2 + 256L*x1 + 256L*x1_inner + 2048L*x0));
                                }
                            }
                        }
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(16L))
            {
                {
                    float tmp_acc0 = 0;
                    at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
                    float tmp_acc1 = 0;
                    at::vec::Vectorized<float> tmp_acc1_vec = at::vec::Vectorized<float>(0);
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(4L); x1+=static_cast<int64_t>(1L))
                    {
                        for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(256L); x2+=static_cast<int64_t>(16L))
                        {
                            {
                                if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L) && x2 >= static_cast<int64_t>(0) && x2 < static_cast<int64_t>(256L)))
                                {
                                    alignas(std::max(std::size_t(16), alignof(float))) float tmp0[16*16];
                                    transpose_mxn<float,static_cast<int64_t>(8L),static_cast<int64_t>(16),false>(out_ptr0 + static_cast<int64_t>(x2 + 256L*x0 + 2048L*x1), static_cast<int64_t>(256L), tmp0, static_cast<int64_t>(8L));
                                    transpose_mxn<float,static_cast<int64_t>(8L),static_cast<int64_t>(16),false>(out_ptr0 + static_cast<int64_t>(x2 + 256L*x0 + 2048L*x1), static_cast<int64_t>(256L), tmp0, static_cast<int64_t>(8L));
                                    for (long x2_inner = 0; x2_inner < static_cast<int64_t>(16); x2_inner++)
                                    {
                                        auto tmp1 = at::vec::Vectorized<float>::loadu(tmp0 + static_cast<int64_t>(8L*x2_inner), static_cast<int64_t>(8L));
                                        auto tmp2 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0 + 8L*x2 + 8L*x2_inner + 2048L*x1), static_cast<int64_t>(8L));
                                        auto tmp3 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                                        auto tmp4 = tmp2 - tmp3;
                                        auto tmp5 = tmp1 * tmp4;
                                        tmp_acc0_vec = sum_masked_reduce(tmp_acc0_vec, tmp1, static_cast<int64_t>(8L));
                                        tmp_acc1_vec = sum_masked_reduce(tmp_acc1_vec, tmp5, static_cast<int64_t>(8L));
                                    }
                                }
                            }
                        }
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                    {
                        tmp_acc0_vec.store(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        tmp_acc1_vec.store(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    }
                }
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        auto tmp1 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        auto tmp2 = tmp0 * tmp1;
                        tmp2.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(256L); x1+=static_cast<int64_t>(16L))
                {
                    for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(8L); x2+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(256L) && x2 >= static_cast<int64_t>(0L) && x2 < static_cast<int64_t>(8L)))
                            {
                                alignas(std::max(std::size_t(16), alignof(float))) float tmp0[16*16];
                                transpose_mxn<float,static_cast<int64_t>(8L),static_cast<int64_t>(16),false>(out_ptr0 + static_cast<int64_t>(x1 + 256L*x2 + 2048L*x0), static_cast<int64_t>(256L), tmp0, static_cast<int64_t>(8L));
                                for (long x1_inner = 0; x1_inner < static_cast<int64_t>(16); x1_inner++)
                                {
                                    auto tmp1 = at::vec::Vectorized<float>::loadu(tmp0 + static_cast<int64_t>(8L*x1_inner), static_cast<int64_t>(8L));
                                    auto tmp2 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x2 + 8L*x1 + 8L*x1_inner + 2048L*x0), static_cast<int64_t>(8L));
                                    auto tmp3 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x2), static_cast<int64_t>(8L));
                                    auto tmp5 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x2), static_cast<int64_t>(8L));
                                    auto tmp9 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x2), static_cast<int64_t>(8L));
                                    auto tmp14 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x2), static_cast<int64_t>(8L));
                                    auto tmp17 = at::vec::Vectorized<float>::loadu(in_ptr3 + static_cast<int64_t>(x2), static_cast<int64_t>(8L));
                                    auto tmp4 = tmp2 - tmp3;
                                    auto tmp6 = static_cast<float>(0.0009765625);
                                    auto tmp7 = at::vec::Vectorized<float>(tmp6);
                                    auto tmp8 = tmp5 * tmp7;
                                    auto tmp10 = tmp9 * tmp9;
                                    auto tmp11 = tmp8 * tmp10;
                                    auto tmp12 = tmp4 * tmp11;
                                    auto tmp13 = tmp1 - tmp12;
                                    auto tmp15 = tmp14 * tmp7;
                                    auto tmp16 = tmp13 - tmp15;
                                    auto tmp18 = tmp9 * tmp17;
                                    auto tmp19 = tmp16 * tmp18;
                                    tmp19.store(in_out_ptr0 + static_cast<int64_t>(x2 + 8L*x1 + 8L*x1_inner + 2048L*x0), static_cast<int64_t>(8L));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
''')


cpp_fused_sum_3 = async_compile.cpp_pybinding(['const float*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0,
                       float* out_ptr0)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(10L); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(10L)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(10L));
                    auto tmp1 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(10L + x0), static_cast<int64_t>(10L));
                    auto tmp3 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(20L + x0), static_cast<int64_t>(10L));
                    auto tmp5 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(30L + x0), static_cast<int64_t>(10L));
                    auto tmp2 = tmp0 + tmp1;
                    auto tmp4 = tmp2 + tmp3;
                    auto tmp6 = tmp4 + tmp5;
                    tmp6.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(10L));
                }
            }
        }
    }
    inductor_cpu_integer_div_error_flag = nullptr;
    inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
}
''')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_3, primals_7, primals_8, primals_9, convolution, getitem_1, rsqrt, getitem_3, view, sub_2, tangents_1 = args
        args.clear()
        assert_size_stride_grouped((tangents_1, sub_2), ((4, 10), (4, 10)), ((10, 1), (10, 1)), 'input')
        buf0 = empty_strided_cpu((4, 1), (1, 4), torch.float32)
        buf1 = empty_strided_cpu((4, 10), (10, 1), torch.float32)
        assert_size_stride(primals_9, (10, 512), (512, 1), 'input')
        # [Provenance debug handles] cpp_fused__log_softmax_backward_data_0:1
        cpp_fused__log_softmax_backward_data_0(tangents_1, sub_2, buf0, buf1)
        del buf0
        del sub_2
        del tangents_1
        buf2 = empty_strided_cpu((4, 512), (512, 1), torch.float32)
        # Topologically Sorted Source Nodes: [linear, permute_1, mm], Original ATen: [aten.t, aten.mm]
        # [Provenance debug handles] extern_kernels.mm:2
        extern_kernels.mm(buf1, primals_9, out=buf2)
        del primals_9
        assert_size_stride(getitem_3, (4, 8, 8, 8), (512, 64, 8, 1), 'input')
        buf6 = empty_strided_cpu((4, 8, 8, 8), (512, 64, 8, 1), torch.int64)
        buf5 = empty_strided_cpu((32, 256), (256, 1), torch.float32)
        # [Provenance debug handles] cpp_fused_max_pool2d_with_indices_max_pool2d_with_indices_backward_view_1:3
        cpp_fused_max_pool2d_with_indices_max_pool2d_with_indices_backward_view_1(getitem_3, buf6, buf5)
        del getitem_3
        aten.scatter_reduce_.two(buf5,1,reinterpret_tensor(buf6, (32, 64), (64, 1), 0),reinterpret_tensor(buf2, (32, 64), (64, 1), 0), reduce='sum', include_self=True)
        del buf2
        del buf6
        assert_size_stride_grouped((convolution, getitem_1, rsqrt, primals_7, primals_8), ((4, 8, 16, 16), (1, 8, 1, 1), (1, 8, 1, 1), (8, ), (8, )), ((2048, 1, 128, 8), (8, 1, 1, 1), (8, 1, 1, 1), (1, ), (1, )), 'input')
        buf8 = empty_strided_cpu((4, 8, 16, 16), (2048, 256, 16, 1), torch.float32)
        buf9 = empty_strided_cpu((8, ), (1, ), torch.float32)
        buf10 = empty_strided_cpu((8, ), (1, ), torch.float32)
        buf11 = empty_strided_cpu((8, ), (1, ), torch.float32)
        buf12 = convolution; del convolution  # reuse
        assert_size_stride_grouped((primals_3, primals_1), ((4, 3, 16, 16), (8, 3, 3, 3)), ((768, 1, 48, 3), (27, 1, 9, 3)), 'input')
        # [Provenance debug handles] cpp_fused__native_batch_norm_legit_functional_max_pool2d_with_indices_backward_native_batch_norm_backward_relu_threshold_backward_2:4
        cpp_fused__native_batch_norm_legit_functional_max_pool2d_with_indices_backward_native_batch_norm_backward_relu_threshold_backward_2(buf12, getitem_1, rsqrt, primals_7, primals_8, buf5, buf8, buf9, buf10, buf11)
        del buf10
        del buf5
        del buf8
        del getitem_1
        del primals_7
        del primals_8
        del rsqrt
        # Topologically Sorted Source Nodes: [batch_norm, unsqueeze_4, unsqueeze_5, unsqueeze_6, sub_4, mul_9, unsqueeze_7, unsqueeze_8, unsqueeze_9, mul_10, mul_11, mul_12, unsqueeze_10, unsqueeze_11, unsqueeze_12, mul_13, unsqueeze_13, unsqueeze_14, unsqueeze_15, mul_14, sub_6, sub_7, mul_15, convolution_backward], Original ATen: [aten._native_batch_norm_legit_functional, aten.native_batch_norm_backward, aten.convolution_backward]
        # [Provenance debug handles] torch.ops.aten.convolution_backward.default:5
        buf13 = torch.ops.aten.convolution_backward.default(buf12, primals_3, primals_1, [8], (1, 1), (1, 1), (1, 1), False, (0, 0), 1, [False, True, True])
        del buf12
        del primals_1
        del primals_3
        buf14 = buf13[1]
        assert_tensor_metadata(buf14, (8, 3, 3, 3), (27, 1, 9, 3), torch.float32, 'torch.ops.aten.convolution_backward.default')
        # buffer buf14 (op: torch.ops.aten.convolution_backward.default) is assumed to be not aligned
        buf15 = buf13[2]
        assert_tensor_metadata(buf15, (8, ), (1, ), torch.float32, 'torch.ops.aten.convolution_backward.default')
        # buffer buf15 (op: torch.ops.aten.convolution_backward.default) is assumed to be not aligned
        del buf13
        buf4 = empty_strided_cpu((1, 10), (10, 1), torch.float32)
        assert_size_stride(view, (4, 512), (512, 1), 'input')
        # [Provenance debug handles] cpp_fused_sum_3:6
        cpp_fused_sum_3(buf1, buf4)
        buf3 = empty_strided_cpu((10, 512), (512, 1), torch.float32)
        # Topologically Sorted Source Nodes: [permute_2, permute_4], Original ATen: [aten.t, aten.mm]
        # [Provenance debug handles] extern_kernels.mm:7
        extern_kernels.mm(reinterpret_tensor(buf1, (10, 4), (1, 10), 0), view, out=buf3)
        del buf1
        del view
        return (buf14, buf15, None, None, None, None, buf11, buf9, buf3, reinterpret_tensor(buf4, (10, ), (1, ), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((8, 3, 3, 3), (27, 1, 9, 3), device='cpu', dtype=torch.float32)
    primals_3 = rand_strided((4, 3, 16, 16), (768, 1, 48, 3), device='cpu', dtype=torch.float32)
    primals_7 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_8 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_9 = rand_strided((10, 512), (512, 1), device='cpu', dtype=torch.float32)
    convolution = rand_strided((4, 8, 16, 16), (2048, 1, 128, 8), device='cpu', dtype=torch.float32)
    getitem_1 = rand_strided((1, 8, 1, 1), (8, 1, 1, 1), device='cpu', dtype=torch.float32)
    rsqrt = rand_strided((1, 8, 1, 1), (8, 1, 1, 1), device='cpu', dtype=torch.float32)
    getitem_3 = rand_strided((4, 8, 8, 8), (512, 64, 8, 1), device='cpu', dtype=torch.int8)
    view = rand_strided((4, 512), (512, 1), device='cpu', dtype=torch.float32)
    sub_2 = rand_strided((4, 10), (10, 1), device='cpu', dtype=torch.float32)
    tangents_1 = rand_strided((4, 10), (10, 1), device='cpu', dtype=torch.float32)
    return [primals_1, primals_3, primals_7, primals_8, primals_9, convolution, getitem_1, rsqrt, getitem_3, view, sub_2, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='cpu')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
