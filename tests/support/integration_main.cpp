// main() of the integration suites: they need a real Kafka broker, named by KSTREAMS_BOOTSTRAP
// (scripts/test starts one with scripts/kafka-broker). Without it they skip (exit 77, meson's skip).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const char* bootstrap = std::getenv("KSTREAMS_BOOTSTRAP");
    if (!bootstrap || !*bootstrap) {
        std::fprintf(stderr,
                     "skipped: no Kafka broker; set KSTREAMS_BOOTSTRAP=host:port (scripts/kafka-broker start "
                     "prints one) or run scripts/test, which starts a broker for this suite\n");
        return 77;
    }
    doctest::Context ctx(argc, argv);
    return ctx.run();
}
