# AOT ID: ['0_forward']
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


cpp_fused_0 = async_compile.cpp_pybinding(['const float*', 'const float*', 'float*', 'float*'], r'''
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
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(1L))
        {
            for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(3L); x1+=static_cast<int64_t>(16L))
            {
                for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(9L); x2+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(3L) && x2 >= static_cast<int64_t>(0L) && x2 < static_cast<int64_t>(9L)))
                        {
                            alignas(std::max(std::size_t(16), alignof(float))) float tmp1[16*16];
                            for (long x1_inner = 0; x1_inner < static_cast<int64_t>(3L); x1_inner++)
                            {
                                auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x2 + 9L*x1 + 9L*x1_inner + 27L*x0), static_cast<int64_t>(9L));
                                tmp0.store(tmp1 + static_cast<int64_t>(9L*x1_inner), static_cast<int64_t>(9L));
                            }
                            transpose_mxn<float,static_cast<int64_t>(3L),static_cast<int64_t>(9L),false>(tmp1, static_cast<int64_t>(9L), out_ptr0 + static_cast<int64_t>(x1 + 3L*x2 + 27L*x0), static_cast<int64_t>(3L));
                        }
                    }
                }
            }
        }
    }
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(3L); x1+=static_cast<int64_t>(16L))
                {
                    for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(256L); x2+=static_cast<int64_t>(16L))
                    {
                        {
                            if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(3L) && x2 >= static_cast<int64_t>(0) && x2 < static_cast<int64_t>(256L)))
                            {
                                alignas(std::max(std::size_t(16), alignof(float))) float tmp1[16*16];
                                for (long x1_inner = 0; x1_inner < static_cast<int64_t>(3L); x1_inner++)
                                {
                                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x2 + 256L*x1 + 256L*x1_inner + 768L*x0), static_cast<int64_t>(16));
                                    tmp0.store(tmp1 + static_cast<int64_t>(16L*x1_inner));
                                }
                                transpose_mxn<float,static_cast<int64_t>(3L),static_cast<int64_t>(16),false>(tmp1, static_cast<int64_t>(16), out_ptr1 + static_cast<int64_t>(x1 + 3L*x2 + 768L*x0), static_cast<int64_t>(3L));
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


cpp_fused__native_batch_norm_legit_functional_copy__max_pool2d_with_indices_relu_1 = async_compile.cpp_pybinding(['float*', 'const float*', 'const float*', 'const float*', 'const float*', 'const float*', 'float*', 'float*', 'float*', 'float*', 'float*', 'int8_t*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(float* in_out_ptr0,
                       const float* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       const float* in_ptr4,
                       float* out_ptr2,
                       float* out_ptr3,
                       float* out_ptr4,
                       float* out_ptr6,
                       float* out_ptr7,
                       int8_t* out_ptr8,
                       float* out_ptr9)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr0 = in_out_ptr0;
    #pragma omp parallel
    {
        int tid = omp_get_thread_num();
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(16L))
            {
                {
                    float tmp_acc0 = 0;
                    at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(1024L); x1+=static_cast<int64_t>(1L))
                    {
                        {
                            if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                            {
                                auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0 + 8L*x1), static_cast<int64_t>(8L));
                                tmp_acc0_vec = sum_masked_reduce(tmp_acc0_vec, tmp0, static_cast<int64_t>(8L));
                            }
                        }
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                    {
                        tmp_acc0_vec.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    }
                }
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        auto tmp7 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        auto tmp1 = static_cast<float>(1024.0);
                        auto tmp2 = at::vec::Vectorized<float>(tmp1);
                        auto tmp3 = tmp0 / tmp2;
                        auto tmp4 = static_cast<float>(0.1);
                        auto tmp5 = at::vec::Vectorized<float>(tmp4);
                        auto tmp6 = tmp3 * tmp5;
                        auto tmp8 = static_cast<float>(0.9);
                        auto tmp9 = at::vec::Vectorized<float>(tmp8);
                        auto tmp10 = tmp7 * tmp9;
                        auto tmp11 = tmp6 + tmp10;
                        tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        tmp11.store(out_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    }
                }
                {
                    float tmp_acc0 = 0;
                    at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
                    for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(1024L); x1+=static_cast<int64_t>(1L))
                    {
                        {
                            if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                            {
                                auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0 + 8L*x1), static_cast<int64_t>(8L));
                                auto tmp1 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                                auto tmp2 = tmp0 - tmp1;
                                auto tmp3 = tmp2 * tmp2;
                                tmp_acc0_vec = sum_masked_reduce(tmp_acc0_vec, tmp3, static_cast<int64_t>(8L));
                            }
                        }
                    }
                    if(C10_UNLIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                    {
                        tmp_acc0_vec.store(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    }
                }
                {
                    if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(8L)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        auto tmp14 = at::vec::Vectorized<float>::loadu(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        auto tmp1 = static_cast<float>(1024.0);
                        auto tmp2 = at::vec::Vectorized<float>(tmp1);
                        auto tmp3 = tmp0 / tmp2;
                        auto tmp4 = static_cast<float>(1e-05);
                        auto tmp5 = at::vec::Vectorized<float>(tmp4);
                        auto tmp6 = tmp3 + tmp5;
                        auto tmp7 = tmp6.rsqrt();
                        auto tmp8 = static_cast<float>(1.0009775171065494);
                        auto tmp9 = at::vec::Vectorized<float>(tmp8);
                        auto tmp10 = tmp3 * tmp9;
                        auto tmp11 = static_cast<float>(0.1);
                        auto tmp12 = at::vec::Vectorized<float>(tmp11);
                        auto tmp13 = tmp10 * tmp12;
                        auto tmp15 = static_cast<float>(0.9);
                        auto tmp16 = at::vec::Vectorized<float>(tmp15);
                        auto tmp17 = tmp14 * tmp16;
                        auto tmp18 = tmp13 + tmp17;
                        tmp7.store(out_ptr4 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                        tmp18.store(out_ptr6 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(1024L); x0+=static_cast<int64_t>(1L))
            {
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(8L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(8L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 8L*x0), static_cast<int64_t>(8L));
                            auto tmp1 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x1), static_cast<int64_t>(8L));
                            auto tmp3 = at::vec::Vectorized<float>::loadu(out_ptr4 + static_cast<int64_t>(x1), static_cast<int64_t>(8L));
                            auto tmp5 = at::vec::Vectorized<float>::loadu(in_ptr3 + static_cast<int64_t>(x1), static_cast<int64_t>(8L));
                            auto tmp7 = at::vec::Vectorized<float>::loadu(in_ptr4 + static_cast<int64_t>(x1), static_cast<int64_t>(8L));
                            auto tmp2 = tmp0 - tmp1;
                            auto tmp4 = tmp2 * tmp3;
                            auto tmp6 = tmp4 * tmp5;
                            auto tmp8 = tmp6 + tmp7;
                            auto tmp9 = at::vec::clamp_min(tmp8, decltype(tmp8)(0));
                            tmp9.store(out_ptr7 + static_cast<int64_t>(x1 + 8L*x0), static_cast<int64_t>(8L));
                        }
                    }
                }
            }
        }
        {
            #pragma omp for
            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
            {
                #pragma GCC ivdep
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(8L); x1+=static_cast<int64_t>(1L))
                {
                    for(int64_t x2=static_cast<int64_t>(0L); x2<static_cast<int64_t>(8L); x2+=static_cast<int64_t>(16L))
                    {
                        for(int64_t x3=static_cast<int64_t>(0L); x3<static_cast<int64_t>(8L); x3+=static_cast<int64_t>(16L))
                        {
                            {
                                if(C10_LIKELY(x2 >= static_cast<int64_t>(0L) && x2 < static_cast<int64_t>(8L) && x3 >= static_cast<int64_t>(0L) && x3 < static_cast<int64_t>(8L)))
                                {
                                    alignas(std::max(std::size_t(16), alignof(int8_t))) int8_t tmp83[16*16];
                                    alignas(std::max(std::size_t(16), alignof(float))) float tmp87[16*16];
                                    for (long x2_inner = 0; x2_inner < static_cast<int64_t>(8L); x2_inner++)
                                    {
                                        auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr7 + static_cast<int64_t>(x3 + 16L*x2 + 16L*x2_inner + 256L*x1 + 2048L*x0), static_cast<int64_t>(8L));
                                        auto tmp1 = at::vec::Vectorized<float>::loadu(out_ptr7 + static_cast<int64_t>(8L + x3 + 16L*x2 + 16L*x2_inner + 256L*x1 + 2048L*x0), static_cast<int64_t>(8L));
                                        auto tmp30 = at::vec::Vectorized<float>::loadu(out_ptr7 + static_cast<int64_t>(128L + x3 + 16L*x2 + 16L*x2_inner + 256L*x1 + 2048L*x0), static_cast<int64_t>(8L));
                                        auto tmp56 = at::vec::Vectorized<float>::loadu(out_ptr7 + static_cast<int64_t>(136L + x3 + 16L*x2 + 16L*x2_inner + 256L*x1 + 2048L*x0), static_cast<int64_t>(8L));
                                        auto tmp2 = at::vec::VecMask<float,1>(tmp0 > tmp1);
                                        auto tmp3 = at::vec::VecMask<float,1>(tmp0 == tmp1);
                                        auto tmp4 = at::vec::VecMask<float,1>(tmp0 != tmp0);
                                        auto tmp5 = at::vec::VecMask<float,1>(tmp1 != tmp1);
                                        auto tmp6 = (tmp4 > tmp5);
                                        auto tmp7 = inductor_vec_mask_cast<int32_t,1>(tmp2);
                                        auto tmp8 = inductor_vec_mask_cast<int32_t,1>(tmp6);
                                        auto tmp9 = tmp7 | tmp8;
                                        auto tmp10 = inductor_vec_mask_cast<int32_t,1>(tmp4);
                                        auto tmp11 = inductor_vec_mask_cast<int32_t,1>(tmp5);
                                        auto tmp12 = tmp10 & tmp11;
                                        auto tmp13 = inductor_vec_mask_cast<int32_t,1>(tmp3);
                                        auto tmp14 = inductor_vec_mask_cast<int32_t,1>(tmp12);
                                        auto tmp15 = tmp13 | tmp14;
                                        auto tmp16 = static_cast<int64_t>(0);
                                        auto tmp17 = static_cast<int64_t>(1);
                                        auto tmp18 = tmp16 < tmp17;
                                        auto tmp19 = at::vec::VecMask<float,1>::from(tmp18);
                                        auto tmp20 = inductor_vec_mask_cast<int32_t,1>(tmp15);
                                        auto tmp21 = inductor_vec_mask_cast<int32_t,1>(tmp19);
                                        auto tmp22 = tmp20 & tmp21;
                                        auto tmp23 = inductor_vec_mask_cast<int32_t,1>(tmp9);
                                        auto tmp24 = inductor_vec_mask_cast<int32_t,1>(tmp22);
                                        auto tmp25 = tmp23 | tmp24;
                                        auto tmp26 = decltype(tmp0)::blendv(tmp1, tmp0, inductor_vec_mask_cast<float,1>(tmp25));
                                        auto tmp27 = at::vec::VectorizedN<int64_t,2>(tmp16);
                                        auto tmp28 = at::vec::VectorizedN<int64_t,2>(tmp17);
                                        auto tmp29 = decltype(tmp27)::blendv(tmp28, tmp27, inductor_vec_mask_cast<int64_t,2>(tmp25));
                                        auto tmp31 = at::vec::VecMask<float,1>(tmp26 > tmp30);
                                        auto tmp32 = at::vec::VecMask<float,1>(tmp26 == tmp30);
                                        auto tmp33 = at::vec::VecMask<float,1>(tmp26 != tmp26);
                                        auto tmp34 = at::vec::VecMask<float,1>(tmp30 != tmp30);
                                        auto tmp35 = (tmp33 > tmp34);
                                        auto tmp36 = inductor_vec_mask_cast<int32_t,1>(tmp31);
                                        auto tmp37 = inductor_vec_mask_cast<int32_t,1>(tmp35);
                                        auto tmp38 = tmp36 | tmp37;
                                        auto tmp39 = inductor_vec_mask_cast<int32_t,1>(tmp33);
                                        auto tmp40 = inductor_vec_mask_cast<int32_t,1>(tmp34);
                                        auto tmp41 = tmp39 & tmp40;
                                        auto tmp42 = inductor_vec_mask_cast<int32_t,1>(tmp32);
                                        auto tmp43 = inductor_vec_mask_cast<int32_t,1>(tmp41);
                                        auto tmp44 = tmp42 | tmp43;
                                        auto tmp45 = static_cast<int64_t>(2);
                                        auto tmp46 = at::vec::VectorizedN<int64_t,2>(tmp45);
                                        auto tmp47 = at::vec::VecMask<int64_t,2>(tmp29 < tmp46);
                                        auto tmp48 = inductor_vec_mask_cast<int32_t,1>(tmp44);
                                        auto tmp49 = inductor_vec_mask_cast<int32_t,1>(tmp47);
                                        auto tmp50 = tmp48 & tmp49;
                                        auto tmp51 = inductor_vec_mask_cast<int32_t,1>(tmp38);
                                        auto tmp52 = inductor_vec_mask_cast<int32_t,1>(tmp50);
                                        auto tmp53 = tmp51 | tmp52;
                                        auto tmp54 = decltype(tmp26)::blendv(tmp30, tmp26, inductor_vec_mask_cast<float,1>(tmp53));
                                        auto tmp55 = decltype(tmp29)::blendv(tmp46, tmp29, inductor_vec_mask_cast<int64_t,2>(tmp53));
                                        auto tmp57 = at::vec::VecMask<float,1>(tmp54 > tmp56);
                                        auto tmp58 = at::vec::VecMask<float,1>(tmp54 == tmp56);
                                        auto tmp59 = at::vec::VecMask<float,1>(tmp54 != tmp54);
                                        auto tmp60 = at::vec::VecMask<float,1>(tmp56 != tmp56);
                                        auto tmp61 = (tmp59 > tmp60);
                                        auto tmp62 = inductor_vec_mask_cast<int32_t,1>(tmp57);
                                        auto tmp63 = inductor_vec_mask_cast<int32_t,1>(tmp61);
                                        auto tmp64 = tmp62 | tmp63;
                                        auto tmp65 = inductor_vec_mask_cast<int32_t,1>(tmp59);
                                        auto tmp66 = inductor_vec_mask_cast<int32_t,1>(tmp60);
                                        auto tmp67 = tmp65 & tmp66;
                                        auto tmp68 = inductor_vec_mask_cast<int32_t,1>(tmp58);
                                        auto tmp69 = inductor_vec_mask_cast<int32_t,1>(tmp67);
                                        auto tmp70 = tmp68 | tmp69;
                                        auto tmp71 = static_cast<int64_t>(3);
                                        auto tmp72 = at::vec::VectorizedN<int64_t,2>(tmp71);
                                        auto tmp73 = at::vec::VecMask<int64_t,2>(tmp55 < tmp72);
                                        auto tmp74 = inductor_vec_mask_cast<int32_t,1>(tmp70);
                                        auto tmp75 = inductor_vec_mask_cast<int32_t,1>(tmp73);
                                        auto tmp76 = tmp74 & tmp75;
                                        auto tmp77 = inductor_vec_mask_cast<int32_t,1>(tmp64);
                                        auto tmp78 = inductor_vec_mask_cast<int32_t,1>(tmp76);
                                        auto tmp79 = tmp77 | tmp78;
                                        auto tmp80 = decltype(tmp54)::blendv(tmp56, tmp54, inductor_vec_mask_cast<float,1>(tmp79));
                                        auto tmp81 = decltype(tmp55)::blendv(tmp72, tmp55, inductor_vec_mask_cast<int64_t,2>(tmp79));
                                        auto tmp82 = at::vec::convert<int8_t,1,int64_t,2>(tmp81);
                                        auto tmp84 = at::vec::maximum(tmp0, tmp1);
                                        auto tmp85 = at::vec::maximum(tmp84, tmp30);
                                        auto tmp86 = at::vec::maximum(tmp85, tmp56);
                                        tmp82.store(tmp83 + static_cast<int64_t>(8L*x2_inner), static_cast<int64_t>(8L));
                                        tmp86.store(tmp87 + static_cast<int64_t>(8L*x2_inner), static_cast<int64_t>(8L));
                                    }
                                    transpose_mxn<int8_t,static_cast<int64_t>(8L),static_cast<int64_t>(8L),false>(tmp83, static_cast<int64_t>(8L), out_ptr8 + static_cast<int64_t>(x2 + 8L*x1 + 64L*x3 + 512L*x0), static_cast<int64_t>(64L));
                                    transpose_mxn<float,static_cast<int64_t>(8L),static_cast<int64_t>(8L),false>(tmp87, static_cast<int64_t>(8L), out_ptr9 + static_cast<int64_t>(x2 + 8L*x1 + 64L*x3 + 512L*x0), static_cast<int64_t>(64L));
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


cpp_fused__log_softmax_add_copy__2 = async_compile.cpp_pybinding(['float*', 'float*', 'const int64_t*', 'float*', 'int64_t*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(float* in_out_ptr0,
                       float* in_out_ptr1,
                       const int64_t* in_ptr1,
                       float* out_ptr0,
                       int64_t* out_ptr3)
{
    std::atomic<int> inductor_cpu_integer_div_error{0};
    inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
    auto out_ptr1 = in_out_ptr0;
    auto in_ptr0 = in_out_ptr1;
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
        {
            {
                float tmp_acc0 = -std::numeric_limits<float>::infinity();
                at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(-std::numeric_limits<float>::infinity());
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(10L); x1+=static_cast<int64_t>(16L))
                {
                    {
                        if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(10L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr1 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                            tmp_acc0_vec = max_masked_reduce(tmp_acc0_vec, tmp0, static_cast<int64_t>(10L));
                        }
                    }
                }
                tmp_acc0 = max_propagate_nan(tmp_acc0, at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return at::vec::maximum(x, y); }, tmp_acc0_vec));
                out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
            }
        }
    }
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
                            auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr1 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                            auto tmp1 = out_ptr0[static_cast<int64_t>(x0)];
                            auto tmp2 = at::vec::Vectorized<float>(tmp1);
                            auto tmp3 = tmp0 - tmp2;
                            auto tmp4 = tmp3.exp();
                            tmp_acc0_vec = sum_masked_reduce(tmp_acc0_vec, tmp4, static_cast<int64_t>(10L));
                        }
                    }
                }
                tmp_acc0 = tmp_acc0 + at::vec::vec_reduce_all<float, 1>([](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x + y; }, tmp_acc0_vec);
                in_out_ptr0[static_cast<int64_t>(x0)] = static_cast<float>(tmp_acc0);
            }
        }
    }
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(4L)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(4L));
                    auto tmp1 = tmp0.log();
                    tmp1.store(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(4L));
                }
            }
        }
    }
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
        {
            for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(10L); x1+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x1 >= static_cast<int64_t>(0L) && x1 < static_cast<int64_t>(10L)))
                    {
                        auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr1 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                        auto tmp1 = out_ptr0[static_cast<int64_t>(x0)];
                        auto tmp4 = in_out_ptr0[static_cast<int64_t>(x0)];
                        auto tmp2 = at::vec::Vectorized<float>(tmp1);
                        auto tmp3 = tmp0 - tmp2;
                        auto tmp5 = at::vec::Vectorized<float>(tmp4);
                        auto tmp6 = tmp3 - tmp5;
                        tmp6.store(in_out_ptr1 + static_cast<int64_t>(x1 + 10L*x0), static_cast<int64_t>(10L));
                    }
                }
            }
        }
    }
    {
        {
            {
                auto tmp0 = in_ptr1[static_cast<int64_t>(0L)];
                auto tmp1 = static_cast<int64_t>(1);
                auto tmp2 = int64_t(static_cast<std::make_unsigned_t<int64_t>>(tmp0) + static_cast<std::make_unsigned_t<int64_t>>(tmp1));
                out_ptr3[static_cast<int64_t>(0L)] = tmp2;
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
        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10 = args
        args.clear()
        assert_size_stride(primals_1, (8, 3, 3, 3), (27, 9, 3, 1), 'input')
        buf0 = empty_strided_cpu((8, 3, 3, 3), (27, 1, 9, 3), torch.float32)
        assert_size_stride(primals_3, (4, 3, 16, 16), (768, 256, 16, 1), 'input')
        buf1 = empty_strided_cpu((4, 3, 16, 16), (768, 1, 48, 3), torch.float32)
        assert_size_stride(primals_2, (8, ), (1, ), 'input')
        # [Provenance debug handles] cpp_fused_0:1
        cpp_fused_0(primals_1, primals_3, buf0, buf1)
        del primals_1
        del primals_3
        # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
        # [Provenance debug handles] extern_kernels.convolution:2
        buf2 = extern_kernels.convolution(buf1, buf0, primals_2, stride=(1, 1), padding=(1, 1), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1)
        assert_tensor_metadata(buf2, (4, 8, 16, 16), (2048, 1, 128, 8), torch.float32, 'torch.ops.aten.convolution.default')
        del primals_2
        assert_size_stride_grouped((primals_5, primals_6), ((8, ), (8, )), ((1, ), (1, )), 'input')
        buf3 = empty_strided_cpu((1, 8, 1, 1), (8, 1, 8, 8), torch.float32)
        buf4 = buf3; del buf3  # reuse
        buf5 = empty_strided_cpu((1, 8, 1, 1), (8, 1, 8, 8), torch.float32)
        buf6 = empty_strided_cpu((1, 8, 1, 1), (8, 1, 1, 1), torch.float32)
        assert_size_stride_grouped((primals_7, primals_8), ((8, ), (8, )), ((1, ), (1, )), 'input')
        buf7 = empty_strided_cpu((4, 8, 16, 16), (2048, 1, 128, 8), torch.float32)
        buf8 = empty_strided_cpu((4, 8, 8, 8), (512, 64, 8, 1), torch.int8)
        buf9 = empty_strided_cpu((4, 8, 8, 8), (512, 64, 8, 1), torch.float32)
        assert_size_stride_grouped((primals_10, primals_9), ((10, ), (10, 512)), ((1, ), (512, 1)), 'input')
        # [Provenance debug handles] cpp_fused__native_batch_norm_legit_functional_copy__max_pool2d_with_indices_relu_1:3
        cpp_fused__native_batch_norm_legit_functional_copy__max_pool2d_with_indices_relu_1(buf4, buf2, primals_5, primals_6, primals_7, primals_8, primals_5, buf5, buf6, primals_6, buf7, buf8, buf9)
        del buf5
        del buf7
        del primals_5
        del primals_6
        buf10 = empty_strided_cpu((4, 10), (10, 1), torch.float32)
        # Topologically Sorted Source Nodes: [batch_norm, y, y_1, flatten, linear], Original ATen: [aten._native_batch_norm_legit_functional, aten.relu, aten.max_pool2d_with_indices, aten.view, aten.t, aten.addmm]
        # [Provenance debug handles] extern_kernels.addmm:4
        extern_kernels.addmm(primals_10, reinterpret_tensor(buf9, (4, 512), (512, 1), 0), reinterpret_tensor(primals_9, (512, 10), (1, 512), 0), alpha=1, beta=1, out=buf10)
        del primals_10
        buf11 = empty_strided_cpu((4, 1), (1, 4), torch.float32)
        buf12 = empty_strided_cpu((4, 1), (1, 4), torch.float32)
        buf13 = buf12; del buf12  # reuse
        buf14 = buf10; del buf10  # reuse
        assert_size_stride(primals_4, (), (), 'input')
        # [Provenance debug handles] cpp_fused__log_softmax_add_copy__2:5
        cpp_fused__log_softmax_add_copy__2(buf13, buf14, primals_4, buf11, primals_4)
        del buf11
        del buf13
        del primals_4
        return (buf14, buf0, buf1, primals_7, primals_8, primals_9, buf2, reinterpret_tensor(buf4, (1, 8, 1, 1), (8, 1, 1, 1), 0), buf6, buf8, reinterpret_tensor(buf9, (4, 512), (512, 1), 0), buf14, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((8, 3, 3, 3), (27, 9, 3, 1), device='cpu', dtype=torch.float32)
    primals_2 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_3 = rand_strided((4, 3, 16, 16), (768, 256, 16, 1), device='cpu', dtype=torch.float32)
    primals_4 = rand_strided((), (), device='cpu', dtype=torch.int64)
    primals_5 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_6 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_7 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_8 = rand_strided((8, ), (1, ), device='cpu', dtype=torch.float32)
    primals_9 = rand_strided((10, 512), (512, 1), device='cpu', dtype=torch.float32)
    primals_10 = rand_strided((10, ), (1, ), device='cpu', dtype=torch.float32)
    return [primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='cpu')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
