// tuning/model: a host plugin whose launch spins for the time the tuning tests' cost model
// (tests/support/tuning_model.hpp) gives its configuration, so `kbench tune` searches a space
// whose optimum is known. out = in + 1 over n integers, checked exactly — but for the one
// configuration the model calls broken.
#include <kbench/plugin.h>

#include "support/tuning_model.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace model = kbtest::tuning;

struct State {
  std::vector<int> in, out;
  model::Point point;
  double spin_us;
};

model::Point point_of(const kb_case* c) {
  return model::point_of(std::to_string(c->block[0]) + "x" + std::to_string(c->block[1]),
                         c->params ? c->params : "");
}

int accepts(const kb_case* c, kb_message* why) {
  const model::Point p = point_of(c);
  if (p.b < 0 || p.u < 0 || p.v < 0) {
    std::snprintf(why->text, sizeof why->text, "a block or a parameter value the model lacks");
    return 0;
  }
  if (model::refused(p.b, p.u)) {
    std::snprintf(why->text, sizeof why->text, "block 32x16 with unroll 8: too many registers");
    return 0;
  }
  return 1;
}

kb_status setup(const kb_case* c, void** state, kb_work* work, kb_message*) {
  auto* s = new State;
  s->in.resize(static_cast<std::size_t>(c->shape[0]));
  for (std::size_t i = 0; i < s->in.size(); ++i) {
    s->in[i] = static_cast<int>((i * 13 + c->seed) % 977);
  }
  s->out.resize(s->in.size());
  s->point = point_of(c);
  s->spin_us = model::cost_us(c->shape[0], s->point);
  work->bytes = 8.0 * static_cast<double>(s->in.size());
  work->flops = 0;
  *state = s;
  return KB_OK;
}

kb_status poison(void* state, void*, kb_message*) {
  auto* s = static_cast<State*>(state);
  std::fill(s->out.begin(), s->out.end(), -1);
  return KB_OK;
}

kb_status launch(void* state, void*, kb_launch_config*, kb_message*) {
  auto* s = static_cast<State*>(state);
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(s->spin_us);
  for (std::size_t i = 0; i < s->in.size(); ++i) s->out[i] = s->in[i] + 1;
  while (std::chrono::steady_clock::now() < end) {
  }
  return KB_OK;
}

kb_status verify(void* state, kb_verification* result, kb_message*) {
  auto* s = static_cast<State*>(state);
  const bool broken = model::broken(s->point.b, s->point.u, s->point.v);
  result->passed = 1;
  result->checked = s->in.size();
  for (std::size_t i = 0; i < s->in.size(); ++i) {
    if (s->out[i] != s->in[i] + (broken ? 2 : 1)) result->passed = 0, result->max_rel_error = 1;
  }
  return result->passed ? KB_OK : KB_VERIFY_FAILED;
}

void teardown(void* state) { delete static_cast<State*>(state); }

constexpr kb_family kFamily = {"tuning", 1,     "n",     "1000", "8x8,16x8,16x16,32x8,32x16",
                               "int32",  "100", "16x16", "time", ""};
constexpr kb_param kParams[] = {{"unroll", "1", "1,2,4,8", "elements per thread"},
                                {"vec", "1", "1,2", "elements per load"}};

KernelPlugin make_descriptor() {
  KernelPlugin p{};
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "tuning/model";
  p.family = "tuning";
  p.version = "1";
  p.description = "spins for the tuning tests' cost model of its configuration";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_I32;
  p.ops = "";
  p.cuda_archs = "";
  p.accepts = accepts;
  p.setup = setup;
  p.poison = poison;
  p.launch = launch;
  p.verify = verify;
  p.teardown = teardown;
  p.family_info = &kFamily;
  p.params = kParams;
  p.param_count = 2;
  return p;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static const KernelPlugin plugin = make_descriptor();
  return &plugin;
}
