// Cooperative fibers for the MSL executor: execution contexts on their own stacks that
// switch only when told to. One host thread runs a whole threadgroup this way, each MSL
// thread a fiber that gives control back at every barrier and SIMD-group function.
//
// Two implementations of the same interface:
//  - x86-64 (the default there): a dozen instructions of assembly that save the
//    callee-saved registers and the floating-point control words and swap stacks. SPD
//    switches about 20 times per thread per threadgroup, and glibc's swapcontext makes a
//    sigprocmask system call on each switch: with it, a 1000x1000 8-layer SPD took 3.1 s
//    instead of 0.6 s.
//  - POSIX ucontext (makecontext/swapcontext): everywhere else, or with -DMSL_EXEC_UCONTEXT
//    (the self-tests build both, so the portable one does not rot).
#pragma once

#include <cstddef>

#if !defined(__x86_64__) && !defined(MSL_EXEC_UCONTEXT)
#define MSL_EXEC_UCONTEXT 1
#endif
#ifdef MSL_EXEC_UCONTEXT
#include <ucontext.h>
#endif

namespace msl_exec {

// A place to resume: a fiber, or the scheduler that switched into it.
struct fiber_context {
#ifdef MSL_EXEC_UCONTEXT
  ucontext_t uc;
#else
  void* sp = nullptr; // saved stack pointer; registers are saved on that stack
#endif
};

// Prepares ctx to call entry(arg) on the stack [stack, stack + size) when it is first
// switched to. entry must never return: it switches away for the last time instead.
void fiber_prepare(fiber_context& ctx, char* stack, size_t size, void (*entry)(void*), void* arg);

// Saves the running context in from and resumes to.
void fiber_switch(fiber_context& from, fiber_context& to);

// Which implementation this build uses ("x86-64 assembly" or "ucontext").
const char* fiber_implementation();

// Stacks for n fibers, each with a guard page below it so that an overflow faults
// instead of corrupting the neighbour. Allocated once and reused for every threadgroup.
class fiber_stacks {
public:
  explicit fiber_stacks(size_t stack_bytes) : stack_bytes_(stack_bytes) {}
  ~fiber_stacks();
  fiber_stacks(const fiber_stacks&) = delete;
  fiber_stacks& operator=(const fiber_stacks&) = delete;

  // Makes room for at least n stacks; returns false if memory ran out.
  bool reserve(size_t n);
  char* stack(size_t i) const { return base_ + i * (stack_bytes_ + guard_bytes_) + guard_bytes_; }
  size_t stack_bytes() const { return stack_bytes_; }

private:
  size_t stack_bytes_, guard_bytes_ = 0, count_ = 0, mapped_ = 0;
  char* base_ = nullptr;
};

} // namespace msl_exec
