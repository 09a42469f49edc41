/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel definitions that randstat's pure sources (module/classify.c,
 * interval.c, estimator.c, rng.c) and lib/crypto/chacha.c use, for a
 * user-space build of them (bench/host/).  Each is what x86_64 Linux 6.1
 * defines (file named beside it), so the host build computes what the
 * module computes; the linux/ and asm/ headers here only include this one.
 * Built for aarch64 (make CC=aarch64-linux-gnu-gcc), the few that differ
 * are arm64's (arch/arm64/...), as its module is built.
 */
#ifndef _RANDSTAT_KSHIM_H
#define _RANDSTAT_KSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* linux/types.h */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef uint64_t __u64;

/* linux/kconfig.h: no option is set here */
#define IS_ENABLED(option)	0

/* linux/compiler_attributes.h, linux/compiler.h, linux/build_bug.h, linux/bug.h, linux/export.h */
#define barrier_data(ptr)	__asm__ __volatile__("" : : "r"(ptr) : "memory")
#define __aligned(x)		__attribute__((__aligned__(x)))
#define noinline		__attribute__((__noinline__))
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)
#define WARN_ON_ONCE(cond)	((void)(cond))
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))
#define EXPORT_SYMBOL(sym)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* linux/errno.h */
#define EINVAL			22

/* linux/minmax.h (without its type checks; each argument evaluated once) */
#define min(x, y)	({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); \
			   _x < _y ? _x : _y; })
#define max(x, y)	({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); \
			   _x > _y ? _x : _y; })
/* linux/jiffies.h */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)

#define min3(x, y, z)	min(min(x, y), z)
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))
#define clamp(v, lo, hi)	min(max(v, lo), hi)

/* linux/kernel.h */
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))

/* linux/param.h, linux/time64.h */
#define USER_HZ			100
#define NSEC_PER_SEC		1000000000L
#define NSEC_PER_USEC		1000L

#ifdef __aarch64__
/* include/asm-generic/bitops/fls64.h, builtin __fls (arm64): clz */
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
#else
/* arch/x86/include/asm/bitops.h: fls64() is bsrq on x86_64 */
static inline int fls64(u64 x)
{
	int bitpos = -1;

	__asm__("bsrq %1,%q0" : "+r"(bitpos) : "rm"(x));
	return bitpos + 1;
}
#endif

/* linux/log2.h: ilog2() of a variable */
#define ilog2(n)		(fls64(n) - 1)

/* linux/bitops.h */
static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

#ifdef __aarch64__
/* linux/math64.h (arm64: the generic mul_u32_u32, and __int128 below) */
static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}
#else
/* arch/x86/include/asm/div64.h and linux/math64.h (x86_64: __int128) */
static inline u64 mul_u32_u32(u32 a, u32 b)
{
	u32 high, low;

	__asm__("mull %[b]" : "=a"(low), "=d"(high) : [a] "a"(a), [b] "rm"(b));
	return low | ((u64)high) << 32;
}
#endif

static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

static inline u64 mul_u64_u64_shr(u64 a, u64 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

/* linux/overflow.h: the compiler's builtin, as the kernel's */
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

/* linux/string.h, lib/string.c */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	barrier_data(s);
}

/* asm/unaligned.h (x86 is little-endian and allows unaligned access) */
static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}

/* linux/preempt.h */
#define HARDIRQ_OFFSET		(1UL << 16)

/* linux/sched.h, linux/sched/prio.h: the fields the sources read */
#define PF_VCPU			0x00000001
#define PF_IDLE			0x00000002
#define MAX_RT_PRIO		100
#define DEFAULT_PRIO		(MAX_RT_PRIO + 20)
#define PRIO_TO_NICE(prio)	((prio) - DEFAULT_PRIO)

struct task_struct {
	unsigned int flags;
	int static_prio;
};

static inline int task_nice(const struct task_struct *p)
{
	return PRIO_TO_NICE(p->static_prio);
}

static inline bool is_idle_task(const struct task_struct *p)
{
	return !!(p->flags & PF_IDLE);
}

#ifdef __aarch64__
/* arch/arm64/include/asm/ptrace.h: the field user_mode() reads */
#define PSR_MODE_EL0t		0x00000000
#define PSR_MODE_EL1h		0x00000005
#define PSR_MODE_MASK		0x0000000f
struct pt_regs {
	u64 pstate;
};

static inline int user_mode(struct pt_regs *regs)
{
	return (regs->pstate & PSR_MODE_MASK) == PSR_MODE_EL0t;
}

/* hostbench.c's contexts: interrupted in user mode, in the kernel */
#define KSHIM_REGS_USER		{ PSR_MODE_EL0t }
#define KSHIM_REGS_KERNEL	{ PSR_MODE_EL1h }
#else
/* arch/x86/include/asm/ptrace.h: the field user_mode() reads */
struct pt_regs {
	unsigned long cs;
};

static inline int user_mode(struct pt_regs *regs)
{
	return !!(regs->cs & 3);
}

/* hostbench.c's contexts: __USER_CS, __KERNEL_CS */
#define KSHIM_REGS_USER		{ 0x33 }
#define KSHIM_REGS_KERNEL	{ 0x10 }
#endif

/* linux/cpuidle.h: the part randstat_idle_may_cancel() reads */
#define CPUIDLE_STATE_MAX	10
#define CPUIDLE_FLAG_TIMER_STOP	(1u << 2)
struct cpuidle_state {
	unsigned int flags;
};
struct cpuidle_driver {
	struct cpuidle_state states[CPUIDLE_STATE_MAX];
	int state_count;
};

#endif /* _RANDSTAT_KSHIM_H */
