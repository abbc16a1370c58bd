// The files in the state directory that kstreams reads back: a task's and the global thread's
// `.checkpoint` (Kafka's OffsetCheckpoint text format: every offset read is a position) and the process metadata file
// (`{"processId":"<uuid>"}`). Any content reads as a checkpoint or as "unreadable" (never a crash);
// a readable one written back reads the same; the process id is always a UUID.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/process_id.hpp"
#include "tests/fuzz/fuzz.hpp"

namespace {

std::filesystem::path& scratch() {
    static std::filesystem::path dir;
    return dir;
}

void write_file(const std::filesystem::path& file, std::string_view bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    FUZZ_CHECK(static_cast<bool>(out.flush()));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setenv("KSTREAMS_LOG", "error", 1);  // every unreadable file would warn
    std::string tmpl = (std::filesystem::temp_directory_path() / "kstreams-fuzz-XXXXXX").string();
    FUZZ_CHECK(mkdtemp(tmpl.data()) != nullptr);
    scratch() = tmpl;
    std::atexit([] {
        std::error_code ec;
        std::filesystem::remove_all(scratch(), ec);
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace kstreams::detail;
    const std::string_view in = fuzz::view(data, size);
    const auto read_dir = scratch() / "read", write_dir = scratch() / "write";
    std::filesystem::create_directories(read_dir);

    write_file(read_dir / ".checkpoint", in);
    bool unreadable = true;
    const checkpoint_offsets offsets = read_checkpoint(read_dir, &unreadable);
    if (unreadable) {
        FUZZ_CHECK(offsets.empty());
    } else {
        for (const auto& [tp, offset] : offsets) FUZZ_CHECK(offset >= 0);
        write_checkpoint(write_dir, offsets);
        bool again_unreadable = true;
        FUZZ_CHECK(read_checkpoint(write_dir, &again_unreadable) == offsets);
        FUZZ_CHECK(!again_unreadable);
    }

    write_file(read_dir / "kafka-streams-process-metadata", in);
    FUZZ_CHECK(is_uuid(load_process_id(read_dir, true)));
    return 0;
}
