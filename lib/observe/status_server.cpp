#include "lib/observe/status_server.hpp"

#include <charconv>
#include <stdexcept>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

tcp::endpoint parse_listener(const std::string& listener) {
    std::string host = "127.0.0.1";
    std::string port = listener;
    if (const auto colon = listener.rfind(':'); colon != std::string::npos) {
        host = listener.substr(0, colon);
        port = listener.substr(colon + 1);
        if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
        if (host.empty()) host = "127.0.0.1";
    }
    unsigned short p = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc{} || end != port.data() + port.size())
        throw std::invalid_argument("streams config: status.listener=" + listener + " has no valid port");
    boost::system::error_code bad;
    const auto address = asio::ip::make_address(host, bad);
    if (bad) throw std::invalid_argument("streams config: status.listener=" + listener + " has no valid address");
    return {address, p};
}

/// Runs `fn` as a coroutine on `io`; what it throws is logged (never a bare detached).
template <class F>
void spawn(asio::io_context& io, F fn, std::string what) {
    asio::co_spawn(io, std::move(fn), [what = std::move(what)](std::exception_ptr e) {
        if (!e) return;
        try {
            std::rethrow_exception(e);
        } catch (const boost::system::system_error& err) {
            if (err.code() != asio::error::operation_aborted)
                KSTREAMS_LOG(warn, "status page: " + what + ": " + err.what());
        } catch (const std::exception& err) {
            KSTREAMS_LOG(warn, "status page: " + what + ": " + err.what());
        }
    });
}

}  // namespace

struct status_server::impl {
    asio::io_context io{1};
    tcp::acceptor acceptor{io};
    std::map<std::string, handler> routes;
    std::thread thread;

    http::response<http::string_body> answer(const http::request<http::string_body>& req) {
        http_reply reply{"text/plain; charset=utf-8", "not found\n", 404};
        std::string target(req.target());
        if (const auto q = target.find('?'); q != std::string::npos) target.resize(q);
        if (req.method() != http::verb::get && req.method() != http::verb::head) {
            reply = {"text/plain; charset=utf-8", "only GET\n", 405};
        } else if (auto it = routes.find(target); it != routes.end()) {
            try {
                reply = it->second();
            } catch (const std::exception& e) {
                reply = {"text/plain; charset=utf-8", std::string("error: ") + e.what() + "\n", 500};
            }
        }
        http::response<http::string_body> res{static_cast<http::status>(reply.status), req.version()};
        res.set(http::field::server, "kstreams");
        res.set(http::field::content_type, reply.content_type);
        res.set(http::field::cache_control, "no-store");
        res.keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res.body() = std::move(reply.body);
        res.prepare_payload();
        return res;
    }

    asio::awaitable<void> session(tcp::socket socket) {
        beast::tcp_stream stream(std::move(socket));
        beast::flat_buffer buffer;
        for (;;) {
            stream.expires_after(std::chrono::seconds(30));
            http::request<http::string_body> req;
            boost::system::error_code ec;
            co_await http::async_read(stream, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
            if (ec) break;  // closed by the client, timed out, or not HTTP
            auto res = answer(req);
            const bool keep = res.keep_alive();
            co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
            if (ec || !keep) break;
        }
        boost::system::error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }

    asio::awaitable<void> accept() {
        for (;;) {
            tcp::socket socket = co_await acceptor.async_accept(asio::use_awaitable);
            spawn(io, session(std::move(socket)), "a connection");
        }
    }
};

status_server::status_server(const std::string& listener, std::map<std::string, handler> routes)
    : impl_(std::make_unique<impl>()) {
    const tcp::endpoint at = parse_listener(listener);
    impl_->routes = std::move(routes);
    boost::system::error_code ec;
    impl_->acceptor.open(at.protocol(), ec);
    if (!ec) impl_->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) impl_->acceptor.bind(at, ec);
    if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw streams_error("status page: cannot listen on " + listener + ": " + ec.message());
    spawn(impl_->io, impl_->accept(), "accepting");
    impl_->thread = std::thread([this] { impl_->io.run(); });
    KSTREAMS_LOG(info, "status page on http://" + address() + "/");
}

status_server::~status_server() {
    impl_->io.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
}

std::string status_server::address() const {
    boost::system::error_code ec;
    const auto ep = impl_->acceptor.local_endpoint(ec);
    if (ec) return {};
    const std::string host = ep.address().is_v6() ? "[" + ep.address().to_string() + "]" : ep.address().to_string();
    return host + ":" + std::to_string(ep.port());
}

}  // namespace kstreams::detail
