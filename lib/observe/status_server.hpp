// The built-in status page's HTTP server (Boost.Beast, kept out of the public headers): a thread
// of its own serving GET requests from a table of paths. Off unless streams_config's
// status_listener is set.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace kstreams::detail {

struct http_reply {
    std::string content_type;
    std::string body;
    int status = 200;
};

class status_server {
public:
    /// A path's handler; called on the server's thread. What it throws becomes a 500 reply.
    using handler = std::function<http_reply()>;

    /// Where `listener` says ("<port>": 127.0.0.1:<port>; "<address>:<port>", "[<ipv6>]:<port>";
    /// port 0: any free one). Throws streams_error when it cannot listen there, and
    /// std::invalid_argument for a listener it cannot read.
    status_server(const std::string& listener, std::map<std::string, handler> routes);
    ~status_server();
    status_server(const status_server&) = delete;
    status_server& operator=(const status_server&) = delete;

    /// "<address>:<port>" it listens on.
    std::string address() const;

    /// Whether `listener` asks for a server at all (not empty, not "0").
    static bool wanted(const std::string& listener) { return !listener.empty() && listener != "0"; }

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace kstreams::detail
