// The executor's scheduler and the shim's execution hooks (see executor.h).
#include "executor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fiber.h"

// Kernel-scope threadgroup variables live in this section (shim/keywords.h); the linker
// defines these bounds when any exists (weak: null when there is none).
extern "C" char __start_msl_threadgroup[] __attribute__((weak));
extern "C" char __stop_msl_threadgroup[] __attribute__((weak));

namespace msl_exec {
namespace {

using metal::__rt::site;

// Why a fiber is not running: ready (to be resumed), one of the waits, or finished.
enum class state { ready, barrier, simd_exchange, simd_mask, simd_barrier, returned };

bool is_simd_wait(state s) {
  return s == state::simd_exchange || s == state::simd_mask || s == state::simd_barrier;
}

struct lane {
  fiber_context ctx;
  thread_ids ids;
  state st = state::ready;
  site where{};
  // simd_exchange: where to put the result, what this lane offers, from which lane.
  void* out = nullptr;
  const void* value = nullptr;
  size_t size = 0;
  unsigned src = 0;
  uint64_t mask = 0; // simd_mask: the result
};

struct run_state {
  const bound_kernel* k = nullptr;
  const resources* res = nullptr;
  std::vector<lane> lanes;
  fiber_context scheduler;
  lane* current = nullptr;
};

run_state* active = nullptr; // the dispatch in progress (one per process)

lane& current_lane(const char* what) {
  if (!active || !active->current) {
    std::fprintf(stderr, "msl executor: %s called outside a dispatch\n", what);
    std::abort();
  }
  return *active->current;
}

// Parks the calling fiber in state s at where and returns to the scheduler.
void wait(state s, site where, const char* what) {
  lane& l = current_lane(what);
  l.st = s;
  l.where = where;
  fiber_switch(l.ctx, active->scheduler);
}

void lane_main(void* arg) {
  lane& l = *static_cast<lane*>(arg);
  active->k->run(*active->res, l.ids);
  l.st = state::returned;
  fiber_switch(l.ctx, active->scheduler); // never resumed
}

bool same_site(site a, site b) {
  return a.line == b.line && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

std::string where_text(site s) { return std::string(s.file) + ":" + std::to_string(s.line); }

std::string state_text(const lane& l) {
  switch (l.st) {
  case state::returned: return "returned from the kernel";
  case state::barrier: return "waits at threadgroup_barrier " + where_text(l.where);
  case state::simd_barrier: return "waits at simdgroup_barrier " + where_text(l.where);
  case state::simd_exchange:
  case state::simd_mask: return "waits at a SIMD-group function at " + where_text(l.where);
  case state::ready: break;
  }
  return "is ready";
}

std::string uint3_text(uint3 v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// A small deterministic generator for the shuffled orders.
struct rng {
  uint64_t s;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return uint32_t(s >> 32);
  }
  void shuffle(std::vector<unsigned>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[next() % i]);
  }
};

void arrange(std::vector<unsigned>& v, order o, rng& r) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = unsigned(i);
  if (o == order::reverse) std::reverse(v.begin(), v.end());
  if (o == order::shuffled) r.shuffle(v);
}

// Completes the SIMD-group of lanes [base, base + n) (SIMD-groups being width wide, the
// last one maybe narrower) if all of them wait at the same SIMD-group call. Returns 1 if
// it did, 0 if none of its lanes waits at one, and -1 (with *error set) if only some do:
// nothing can release the others any more.
int complete_simd_group(std::vector<lane>& lanes, unsigned base, unsigned n, unsigned width, std::string* error) {
  const lane* first = nullptr;
  for (unsigned i = 0; i < n && !first; ++i)
    if (is_simd_wait(lanes[base + i].st)) first = &lanes[base + i];
  if (!first) return 0;
  for (unsigned i = 0; i < n; ++i) {
    const lane& l = lanes[base + i];
    if (l.st == first->st && same_site(l.where, first->where) &&
        (l.st != state::simd_exchange || l.size == first->size))
      continue;
    *error = "SIMD-group " + std::to_string(base / width) + " (threads " + std::to_string(base) + "-" +
             std::to_string(base + n - 1) + "): lane " + std::to_string(first - &lanes[base]) + " " +
             state_text(*first) + " but lane " + std::to_string(i) + " " + state_text(l) +
             ": a SIMD-group function must be reached by every lane of the SIMD-group";
    return -1;
  }
  for (unsigned i = 0; i < n; ++i) {
    lane& l = lanes[base + i];
    if (l.st == state::simd_exchange) {
      const lane& from = l.src < n ? lanes[base + l.src] : l;
      std::memcpy(l.out, from.value, l.size);
    } else if (l.st == state::simd_mask) {
      l.mask = n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
    }
  }
  for (unsigned i = 0; i < n; ++i) lanes[base + i].st = state::ready;
  return 1;
}

// Every fiber waits or has returned: release what can be released. "" if something was,
// else why the threadgroup cannot go on.
std::string release(std::vector<lane>& lanes, unsigned width) {
  bool progress = false;
  for (unsigned base = 0; base < lanes.size(); base += width) {
    unsigned n = std::min<unsigned>(width, unsigned(lanes.size()) - base);
    std::string error;
    int r = complete_simd_group(lanes, base, n, width, &error);
    if (r < 0) return error;
    progress |= r > 0;
  }
  if (progress) return "";
  // No SIMD-group function is pending, so each fiber waits at a barrier or has returned.
  const lane* at = nullptr;
  for (const lane& l : lanes)
    if (l.st == state::barrier) at = at ? at : &l;
  if (!at) return "no thread can go on"; // unreachable: some thread waits, none at a SIMD call
  for (const lane& l : lanes) {
    if (l.st == state::barrier && same_site(l.where, at->where)) continue;
    size_t waiting = size_t(std::count_if(lanes.begin(), lanes.end(), [&](const lane& o) {
      return o.st == state::barrier && same_site(o.where, at->where);
    }));
    return "threadgroup_barrier at " + where_text(at->where) + " reached by " + std::to_string(waiting) +
           " of " + std::to_string(lanes.size()) + " threads; thread " + std::to_string(&l - lanes.data()) +
           " " + state_text(l) + ": a barrier must be reached by every thread of the threadgroup";
  }
  for (lane& l : lanes) l.st = state::ready;
  return "";
}

// Runs one threadgroup to completion (or to its first error).
std::string run_group(run_state& run, fiber_stacks& stacks, const dispatch_params& p, uint3 group,
                      rng& r, unsigned serial) {
  unsigned n = p.threads.x * p.threads.y * p.threads.z;
  for (unsigned i = 0; i < n; ++i) {
    lane& l = run.lanes[i];
    l = lane{};
    thread_ids& id = l.ids;
    id.thread_in_group = uint3{i % p.threads.x, (i / p.threads.x) % p.threads.y, i / (p.threads.x * p.threads.y)};
    id.index_in_group = i;
    id.group = group;
    id.threads_per_group = p.threads;
    id.groups_per_grid = p.groups;
    id.simd_lane = i % p.simd_width;
    id.simd_group = i / p.simd_width;
    id.simd_width = p.simd_width;
    id.simd_groups = (n + p.simd_width - 1) / p.simd_width;
    fiber_prepare(l.ctx, stacks.stack(i), stacks.stack_bytes(), lane_main, &l);
  }
  // Threadgroup memory starts undefined: fill it with finite values far outside any
  // data, positive in one threadgroup and negative in the next, so a read before a write
  // shows through min, max and sums alike (a NaN would vanish in fmax).
  if (__start_msl_threadgroup)
    std::memset(__start_msl_threadgroup, serial % 2 ? 0xfe : 0x7f,
                size_t(__stop_msl_threadgroup - __start_msl_threadgroup));
  std::vector<unsigned> sequence(n);
  for (;;) {
    arrange(sequence, p.ord, r);
    for (unsigned i : sequence) {
      lane& l = run.lanes[i];
      if (l.st != state::ready) continue;
      run.current = &l;
      fiber_switch(run.scheduler, l.ctx);
    }
    run.current = nullptr;
    if (std::all_of(run.lanes.begin(), run.lanes.begin() + n, [](const lane& l) { return l.st == state::returned; }))
      return "";
    std::string error = release(run.lanes, p.simd_width);
    if (!error.empty()) return "threadgroup " + uint3_text(group) + ": " + error;
  }
}

} // namespace

const char* order_name(order o) {
  switch (o) {
  case order::forward: return "forward";
  case order::reverse: return "reverse";
  case order::shuffled: return "shuffled";
  }
  return "?";
}

std::string dispatch(const bound_kernel& k, const resources& res, const dispatch_params& p) {
  unsigned n = p.threads.x * p.threads.y * p.threads.z;
  if (n == 0 || n > 1024) return std::string(k.name) + ": " + std::to_string(n) + " threads per threadgroup (Metal allows 1 to 1024)";
  if (k.max_total_threads && n > k.max_total_threads)
    return std::string(k.name) + ": " + std::to_string(n) + " threads per threadgroup, more than its [[max_total_threads_per_threadgroup(" +
           std::to_string(k.max_total_threads) + ")]]";
  if (p.simd_width == 0 || p.simd_width > 64) return "SIMD-group width " + std::to_string(p.simd_width) + " (1 to 64 supported)";
  std::string error = k.check(res);
  if (!error.empty()) return std::string(k.name) + ": " + error;
  if (active) return "a dispatch is already running";

  // Stacks are kept for the process: every dispatch of a test reuses them.
  static fiber_stacks stacks(128 * 1024);
  if (!stacks.reserve(n)) return "out of memory for fiber stacks";
  run_state run;
  run.k = &k;
  run.res = &res;
  run.lanes.resize(n);
  active = &run;

  rng r{0x9e3779b97f4a7c15ull ^ p.seed};
  std::vector<unsigned> groups(size_t(p.groups.x) * p.groups.y * p.groups.z);
  arrange(groups, p.ord, r);
  unsigned serial = 0;
  for (unsigned g : groups) {
    uint3 id{g % p.groups.x, (g / p.groups.x) % p.groups.y, g / (p.groups.x * p.groups.y)};
    error = run_group(run, stacks, p, id, r, serial++);
    if (!error.empty()) break;
  }
  active = nullptr;
  return error.empty() ? error : std::string(k.name) + ": " + error;
}

} // namespace msl_exec

// ---- the shim's execution hooks (shim/sync.h) ------------------------------------------
namespace metal {
namespace __rt {

ushort simd_lane_id() { return ushort(msl_exec::current_lane("simd_lane_id").ids.simd_lane); }
ushort simd_size() { return ushort(msl_exec::current_lane("simd_size").ids.simd_width); }

uint64_t simd_active_mask(site where) {
  msl_exec::wait(msl_exec::state::simd_mask, where, "a SIMD-group function");
  return msl_exec::current_lane("a SIMD-group function").mask;
}

void simd_exchange(void* out, const void* value, size_t size, ushort src_lane, site where) {
  msl_exec::lane& l = msl_exec::current_lane("a SIMD-group function");
  l.out = out;
  l.value = value;
  l.size = size;
  l.src = src_lane;
  msl_exec::wait(msl_exec::state::simd_exchange, where, "a SIMD-group function");
}

void threadgroup_barrier(mem_flags, site where) {
  msl_exec::wait(msl_exec::state::barrier, where, "threadgroup_barrier");
}

void simdgroup_barrier(mem_flags, site where) {
  msl_exec::wait(msl_exec::state::simd_barrier, where, "simdgroup_barrier");
}

// Threadgroups run one after another on one host thread: every write is visible to every
// later read, so fences have nothing to order (which is why the executor cannot find a
// missing fence; see README).
void thread_fence(mem_flags, memory_order, thread_scope) {}

} // namespace __rt
} // namespace metal
