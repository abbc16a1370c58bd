// The records one owner of offset holds marked on one input partition (offset_hold::mark), and what
// a commit's metadata names of them, so that a restart tells the marked records it processes again
// apart from the others whatever order it takes the task's partitions in. A commit names at most
// max_named marks per owner and partition; past those, the restart is told it cannot know.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kstreams::detail {

class held_marks {
public:
    /// At most this many offsets per commit (a few bytes each in the metadata, whose size the
    /// broker limits: offset.metadata.max.bytes, 4096 by default).
    static constexpr std::size_t max_named = 64;

    /// Marks the record at `offset` until a watermark reaches `release`.
    void mark(std::int64_t offset, std::int64_t release) { live_[offset] = release; }
    void unmark(std::int64_t offset) { live_.erase(offset); }
    /// Forgets the marks `watermark` released.
    void release(std::int64_t watermark);
    /// Appends "/<first offset>.<difference to the next>...[*<from>-<to>]" (offsets from..to-1 not
    /// known) naming the marks at or after `committed` (the commit's offset: a restart processes
    /// again only from there): this run's and those of the commit resumed from not processed
    /// again yet; nothing if there are none.
    void encode(std::string& out, std::int64_t committed) const;
    /// Reads what encode wrote after the '/' (the marks of the commit resumed from); false if malformed.
    bool decode(std::string_view& in);
    /// Whether the commit resumed from named the record at `offset` (processed again now); nullopt
    /// if it could not say. From then on the record's mark is this run's.
    std::optional<bool> take(std::int64_t offset);

private:
    std::map<std::int64_t, std::int64_t> live_;  ///< this run's: offset -> release
    std::vector<std::int64_t> recovered_;        ///< named by the commit resumed from, not taken yet, ascending
    std::int64_t unknown_from_ = 0;              ///< offsets [unknown_from_, unknown_to_) it could not name
    std::int64_t unknown_to_ = 0;
};

}  // namespace kstreams::detail
