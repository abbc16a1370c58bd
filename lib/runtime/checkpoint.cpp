#include "lib/runtime/checkpoint.hpp"

#include <fstream>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::detail {

checkpoint_offsets read_checkpoint(const std::filesystem::path& dir) {
    checkpoint_offsets out;
    std::ifstream in(dir / ".checkpoint");
    if (!in) return out;
    int version = -1;
    std::size_t count = 0;
    if (!(in >> version >> count) || version != 0) {
        KSTREAMS_LOG(warn, "ignoring the unreadable checkpoint file " + (dir / ".checkpoint").string());
        return {};
    }
    for (std::size_t i = 0; i < count; ++i) {
        std::string topic;
        std::int32_t partition = 0;
        std::int64_t offset = 0;
        if (!(in >> topic >> partition >> offset)) {
            KSTREAMS_LOG(warn, "ignoring the truncated checkpoint file " + (dir / ".checkpoint").string());
            return {};
        }
        out[{topic, partition}] = offset;
    }
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
