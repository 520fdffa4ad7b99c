// Fiber contexts and stacks (see fiber.h).
#include "fiber.h"

#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace msl_exec {

#ifdef MSL_EXEC_UCONTEXT

void fiber_prepare(fiber_context& ctx, char* stack, size_t size, void (*entry)(void*), void* arg) {
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = stack;
  ctx.uc.uc_stack.ss_size = size;
  ctx.uc.uc_link = nullptr;
  // makecontext passes int arguments only: split the pointer into two halves.
  uintptr_t a = reinterpret_cast<uintptr_t>(arg), f = reinterpret_cast<uintptr_t>(entry);
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(+[](unsigned f_lo, unsigned f_hi, unsigned a_lo, unsigned a_hi) {
                auto fn = reinterpret_cast<void (*)(void*)>((uintptr_t(f_hi) << 32) | f_lo);
                fn(reinterpret_cast<void*>((uintptr_t(a_hi) << 32) | a_lo));
              }),
              4, unsigned(f), unsigned(uint64_t(f) >> 32), unsigned(a), unsigned(uint64_t(a) >> 32));
}

void fiber_switch(fiber_context& from, fiber_context& to) { swapcontext(&from.uc, &to.uc); }

const char* fiber_implementation() { return "ucontext"; }

#else

// msl_fiber_switch(void** save_sp, void* load_sp): pushes the System V callee-saved
// registers and the MXCSR / x87 control words, stores rsp in *save_sp, loads load_sp and
// pops the same frame from it, then returns into the other context.
// msl_fiber_start: where a new fiber's first switch "returns" to; its prepared frame
// holds entry in r13 and its argument in r12.
asm(R"(
    .text
    .p2align 4
    .globl msl_fiber_switch
    .type msl_fiber_switch, @function
msl_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size msl_fiber_switch, .-msl_fiber_switch

    .p2align 4
    .type msl_fiber_start, @function
msl_fiber_start:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size msl_fiber_start, .-msl_fiber_start
)");
extern "C" void msl_fiber_switch(void** save_sp, void* load_sp);
extern "C" char msl_fiber_start[];

void fiber_prepare(fiber_context& ctx, char* stack, size_t size, void (*entry)(void*), void* arg) {
  // The frame msl_fiber_switch pops, from the lowest address: control words, r15, r14,
  // r13, r12, rbx, rbp, return address. After the pops and ret, rsp = top - 16 (aligned),
  // so the call in msl_fiber_start enters entry with the ABI's alignment.
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
  uint64_t* frame = reinterpret_cast<uint64_t*>(top - 80);
  uint32_t control = 0x1f80u; // MXCSR default: all exceptions masked, round to nearest
  uint16_t x87 = 0x037fu;     // x87 default control word
  std::memset(frame, 0, 80);
  std::memcpy(&frame[0], &control, 4);
  std::memcpy(reinterpret_cast<char*>(&frame[0]) + 4, &x87, 2);
  frame[3] = reinterpret_cast<uint64_t>(entry); // r13
  frame[4] = reinterpret_cast<uint64_t>(arg);   // r12
  frame[7] = reinterpret_cast<uint64_t>(msl_fiber_start);
  ctx.sp = frame;
}

void fiber_switch(fiber_context& from, fiber_context& to) { msl_fiber_switch(&from.sp, to.sp); }

const char* fiber_implementation() { return "x86-64 assembly"; }

#endif

fiber_stacks::~fiber_stacks() {
  if (base_) munmap(base_, mapped_);
}

bool fiber_stacks::reserve(size_t n) {
  if (n <= count_) return true;
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  guard_bytes_ = page;
  stack_bytes_ = (stack_bytes_ + page - 1) / page * page;
  size_t bytes = n * (stack_bytes_ + guard_bytes_);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  char* base = static_cast<char*>(p);
  for (size_t i = 0; i < n; ++i) mprotect(base + i * (stack_bytes_ + guard_bytes_), guard_bytes_, PROT_NONE);
  if (base_) munmap(base_, mapped_);
  base_ = base;
  mapped_ = bytes;
  count_ = n;
  return true;
}

} // namespace msl_exec
