#include "lib/runtime/checkpoint.hpp"

#include <fstream>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::detail {

checkpoint_offsets read_checkpoint(const std::filesystem::path& dir, bool* unreadable) {
    checkpoint_offsets out;
    if (unreadable) *unreadable = false;
    std::ifstream in(dir / ".checkpoint");
    if (!in) return out;
    auto fail = [&](const char* what) {
        KSTREAMS_LOG(warn, std::string("the checkpoint file ") + (dir / ".checkpoint").string() + " is " + what);
        if (unreadable) *unreadable = true;
        return checkpoint_offsets{};
    };
    int version = -1;
    std::size_t count = 0;
    if (!(in >> version >> count) || version != 0) return fail("unreadable");
    for (std::size_t i = 0; i < count; ++i) {
        std::string topic;
        std::int32_t partition = 0;
        std::int64_t offset = 0;
        if (!(in >> topic >> partition >> offset)) return fail("truncated or garbled");
        out[{topic, partition}] = offset;
    }
    std::string extra;
    if (in >> extra) return fail("garbled (more entries than it says)");
    return out;
}

void write_checkpoint(const std::filesystem::path& dir, const checkpoint_offsets& offsets) {
    std::filesystem::create_directories(dir);
    const auto tmp = dir / ".checkpoint.tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << 0 << "\n" << offsets.size() << "\n";
        for (const auto& [tp, offset] : offsets) out << tp.first << " " << tp.second << " " << offset << "\n";
        if (!out.flush()) throw streams_error("could not write the checkpoint file " + tmp.string());
    }
    std::filesystem::rename(tmp, dir / ".checkpoint");
}

}  // namespace kstreams::detail
