// The memo that carries host inputs and references from one case to the next: one value per key
// and type, few entries, the least recently used evicted before a new value is made, and values
// still held by a case kept alive.
#include <kbench/support/memo.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kb {
namespace {

struct Maker {
  int calls = 0;
  std::vector<int> operator()(int value) {
    ++calls;
    return std::vector<int>(1000, value);
  }
};

TEST(Memo, TheSameKeyGivesTheSameObjectAndAnotherKeyANewOne) {
  Memo memo(2);
  Maker make;
  const auto a = memo.get<std::vector<int>>("a", [&] { return make(1); });
  const auto again = memo.get<std::vector<int>>("a", [&] { return make(9); });
  EXPECT_EQ(a.get(), again.get());
  EXPECT_EQ(make.calls, 1);
  EXPECT_EQ((*again)[0], 1);

  const auto b = memo.get<std::vector<int>>("b", [&] { return make(2); });
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(make.calls, 2);
  EXPECT_EQ((*b)[0], 2);
  EXPECT_EQ(memo.size(), 2u);
}

TEST(Memo, TheSameKeyWithAnotherTypeIsAnotherValue) {
  Memo memo(2);
  const auto ints = memo.get<std::vector<int>>("k", [] { return std::vector<int>{1, 2}; });
  const auto text = memo.get<std::string>("k", [] { return std::string("two"); });
  EXPECT_EQ(*ints, (std::vector<int>{1, 2}));
  EXPECT_EQ(*text, "two");
}

TEST(Memo, EvictsTheLeastRecentlyUsedAndStaysBounded) {
  Memo memo(2);
  Maker make;
  const auto get = [&](const std::string& key, int value) {
    const auto v = memo.get<std::vector<int>>(key, [&] { return make(value); });
    EXPECT_LE(memo.size(), memo.capacity());
    return v;
  };
  get("a", 1);
  get("b", 2);
  get("a", 1);  // a is now the most recently used
  get("c", 3);  // evicts b
  EXPECT_EQ(make.calls, 3);
  get("a", 1);
  EXPECT_EQ(make.calls, 3) << "a was kept";
  get("b", 2);
  EXPECT_EQ(make.calls, 4) << "b was evicted, so made again";
  for (int i = 0; i < 50; ++i) get("key" + std::to_string(i), i);
  EXPECT_EQ(memo.size(), 2u);
  memo.clear();
  EXPECT_EQ(memo.size(), 0u);
}

TEST(Memo, EvictsBeforeMakingSoOldAndNewValuesAreNotHeldTogether) {
  Memo memo(2);
  memo.get<int>("a", [] { return 1; });
  memo.get<int>("b", [] { return 2; });
  std::size_t size_while_making = 99;
  memo.get<int>("c", [&] {
    size_while_making = memo.size();
    return 3;
  });
  EXPECT_EQ(size_while_making, 1u);
  EXPECT_EQ(memo.size(), 2u);
}

TEST(Memo, AValueACaseStillHoldsOutlivesItsEviction) {
  Memo memo(1);
  const auto held = memo.get<std::vector<int>>("a", [] { return std::vector<int>(4096, 7); });
  memo.get<std::vector<int>>("b", [] { return std::vector<int>(4096, 8); });
  EXPECT_EQ(memo.size(), 1u);
  EXPECT_EQ(held->size(), 4096u);
  EXPECT_EQ(held->back(), 7);
  EXPECT_EQ(held.use_count(), 1) << "the memo let go of it";
}

TEST(Memo, AFailedMakeKeepsNothingAndIsTriedAgain) {
  Memo memo(2);
  EXPECT_THROW(memo.get<int>("a", []() -> int { throw std::runtime_error("no memory"); }),
               std::runtime_error);
  EXPECT_EQ(memo.size(), 0u);
  EXPECT_EQ(*memo.get<int>("a", [] { return 5; }), 5);
}

TEST(Memo, ACapacityOfZeroStillKeepsOne) {
  Memo memo(0);
  EXPECT_EQ(memo.capacity(), 1u);
  int calls = 0;
  memo.get<int>("a", [&] { return ++calls; });
  memo.get<int>("a", [&] { return ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(Memo, ThreadsSharingTheMemoAgreeOnEachValue) {
  Memo memo(3);
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&memo, &wrong, t] {
      for (int i = 0; i < 2000; ++i) {
        const int key = (i + t) % 5;
        const auto v = memo.get<int>(std::to_string(key), [key] { return key * 10; });
        wrong[t] += *v != key * 10;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  EXPECT_LE(memo.size(), 3u);
}

TEST(Memo, ProcessMemoKeepsACasesTwoValues) {
  EXPECT_EQ(Memo::process().capacity(), 2u);
  EXPECT_EQ(&Memo::process(), &Memo::process());
}

TEST(MemoKey, JoinsItsParts) {
  EXPECT_EQ(memo_key("transpose/input", 4, 8192, 7u), "transpose/input|4|8192|7|");
  EXPECT_NE(memo_key("x", 12, 3), memo_key("x", 1, 23));
}

}  // namespace
}  // namespace kb
