//! `sowlang serve [FILE|DIR|GAME] [--port P] [--host H]`: a board in the browser, for a class to watch
//! and play (with no path, the games built into the program). The page (HTML, CSS, JavaScript in `web/`) is built into the binary, so there is nothing
//! to install. The server listens on the loopback address unless told otherwise, keeps no game state
//! (each request carries the moves; see `serve/api.rs`), and answers every request it cannot honour
//! with a JSON error, changing nothing.

mod api;
mod cache;
mod catalog;
mod guard;

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Response, header};

use super::{fail, out};
use crate::diagnostic::Diagnostic;
use api::{ApiError, MAX_BODY, respond};
use catalog::Catalog;

/// Arguments of `serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A rule file to serve, or a folder: every `.sow` file under it is offered in a chooser. Without
    /// it, the games built into sowlang (`sowlang list`).
    path: Option<PathBuf>,
    /// The port to listen on (0 = any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default answers only this computer; `0.0.0.0` lets every
    /// computer on the network play (there is no password).
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_host)]
    host: IpAddr,
}

/// Searches (computer moves and hints) worked on at once; one keeps a core busy for up to seconds, and
/// more at once would only make each answer slower. Plain moves never wait for them.
const WORKERS: usize = 2;

/// Searches waiting or running at once; the next is refused at once (`sow::serve::busy`) rather than
/// queued for minutes. The queue is first come, first served.
const MAX_SEARCHES: usize = 8;

/// Searches one client (one computer's address) may have waiting or running at once; the next is
/// refused at once (`sow::serve::busy`, 429), so that one client cannot fill the queue and keep the
/// others' computer players waiting. A page asks for one at a time.
const SEARCHES_PER_CLIENT: usize = 3;

/// How long a client may take to send a request's body.
const BODY_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a client may take to send a request's head (its request line and headers), however
/// steadily it sends: hyper closes the connection after it.
const HEAD_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Header lines a request may have (hyper's default is 100; the board's page sends about 15).
const MAX_HEADERS: usize = 64;

/// The address a request came from.
#[derive(Debug, Clone, Copy)]
struct Client(IpAddr);

struct Server {
    catalog: Catalog,
    loopback: bool,
    work: tokio::sync::Semaphore,
    /// Searches waiting or running, in all and by client.
    searches: std::sync::Mutex<Searches>,
}

#[derive(Default)]
struct Searches {
    all: usize,
    by_client: std::collections::HashMap<IpAddr, usize>,
}

/// A place among the searches waiting or running, given back when dropped.
struct Queued<'a> {
    searches: &'a std::sync::Mutex<Searches>,
    client: IpAddr,
}

impl<'a> Queued<'a> {
    /// A place for a search of `client`, or the refusal when the queue or the client's share is full.
    fn take(searches: &'a std::sync::Mutex<Searches>, client: IpAddr) -> Result<Queued<'a>, ApiError> {
        let mut s = searches.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mine = s.by_client.get(&client).copied().unwrap_or(0);
        if mine >= SEARCHES_PER_CLIENT {
            return Err(ApiError::new(
                429,
                "sow::serve::busy",
                format!("this computer already has {mine} computer moves or hints waiting; wait for them before asking for more"),
            ));
        }
        if s.all >= MAX_SEARCHES {
            return Err(ApiError::new(
                503,
                "sow::serve::busy",
                "the computer players are busy; try again in a few seconds",
            ));
        }
        s.all += 1;
        *s.by_client.entry(client).or_insert(0) += 1;
        Ok(Queued { searches, client })
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        let mut s = self.searches.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        s.all -= 1;
        if let Some(n) = s.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                s.by_client.remove(&self.client);
            }
        }
    }
}

/// Runs `serve` until it is stopped.
pub fn run(args: Args) -> u8 {
    let catalog = match &args.path {
        None => Ok(Catalog::shipped()),
        Some(path) => Catalog::scan(path),
    };
    let catalog = match catalog {
        Ok(c) => c,
        Err(m) => return fail(Diagnostic::bare("sow::serve::unreadable", m), 2),
    };
    if catalog.files.is_empty() {
        return fail(
            Diagnostic::bare(
                "sow::serve::no_games",
                format!("there is no `.sow` file under `{}`", catalog.root.display()),
            )
            .with_help("name a rule file or a folder that holds some, or run `sowlang serve` alone for the games built into sowlang"),
            2,
        );
    }
    let addr = SocketAddr::new(args.host, args.port);
    let listener = match TcpListener::bind(addr).and_then(|l| l.set_nonblocking(true).map(|()| l)) {
        Ok(l) => l,
        Err(e) => {
            return fail(
                Diagnostic::bare("sow::serve::bind", format!("cannot listen on {addr}: {e}"))
                    .with_help("another program may be using the port; try another with `--port`, or `--port 0` for any free one"),
                2,
            );
        }
    };
    let bound = listener.local_addr().map_or(addr, |a| a);
    let loopback = args.host.is_loopback();
    if !loopback {
        eprintln!(
            "warning: listening on {} reaches beyond this computer: anyone on the network can open the board \
             (at this computer's network address, port {}) and use this computer's time for its players",
            args.host,
            bound.port()
        );
    }
    let count = catalog.files.len();
    let shown_host = if bound.ip().is_unspecified() {
        "localhost".to_string()
    } else {
        url_host(bound.ip())
    };
    out(&format!(
        "sowlang serve: {count} game{} at http://{shown_host}:{}/ (Ctrl-C stops)\n",
        if count == 1 { "" } else { "s" },
        bound.port()
    ));
    if bound.ip().is_unspecified() {
        out(&network_addresses(bound));
    }
    // Every file checked once at the start, in the background, so that the first listing is quick.
    let warm = catalog.clone();
    let _ = std::thread::Builder::new().name("sowlang-warm".into()).spawn(move || {
        for path in warm.files.values() {
            let _ = warm.cache.get(path);
        }
    });
    let server = Arc::new(Server {
        catalog,
        loopback,
        work: tokio::sync::Semaphore::new(WORKERS),
        searches: std::sync::Mutex::new(Searches::default()),
    });
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(Diagnostic::bare("sow::serve::stopped", format!("cannot start the server: {e}")), 2),
    };
    let result = runtime.block_on(listen(listener, server));
    match result {
        Ok(()) => 0,
        Err(e) => fail(Diagnostic::bare("sow::serve::stopped", format!("the server stopped: {e}")), 2),
    }
}

/// Serves connections until the process stops. hyper is driven here rather than through `axum::serve`
/// for the settings axum does not expose: a time limit on a request's head, apart from the guard's
/// idle limit (a client trickling a header byte every few seconds is never idle), and a bound on the
/// number of header lines.
async fn listen(listener: TcpListener, server: Arc<Server>) -> std::io::Result<()> {
    let mut listener = guard::Guarded::new(tokio::net::TcpListener::from_std(listener)?);
    let app = axum::Router::new().fallback(handle).with_state(server);
    loop {
        let (connection, addr) = axum::serve::Listener::accept(&mut listener).await;
        // Each request knows its client, for the searches' fair share.
        let service = hyper_util::service::TowerToHyperService::new(app.clone().layer(axum::Extension(Client(addr.ip()))));
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEAD_TIME)
                .max_headers(MAX_HEADERS)
                .serve_connection(hyper_util::rt::TokioIo::new(connection), service)
                .await;
        });
    }
}

/// What a server listening on every network (`--host 0.0.0.0` or `::`) prints for the tablets of a
/// class: the address of each of this computer's network interfaces, as a page address to type in.
/// Loopback interfaces are left out (a tablet cannot reach them), and so are IPv6 ones when listening
/// on IPv4's `0.0.0.0`, which does not answer them.
fn network_addresses(bound: SocketAddr) -> String {
    let interfaces = if_addrs::get_if_addrs().unwrap_or_default();
    let mut urls: Vec<String> = interfaces
        .iter()
        .filter(|i| !i.is_loopback() && (bound.is_ipv6() || i.ip().is_ipv4()))
        .map(|i| format!("  http://{}:{}/   ({})\n", url_host(i.ip()), bound.port(), i.name))
        .collect();
    urls.dedup();
    if urls.is_empty() {
        return "this computer has no network address other computers can reach (is it on the network?)\n".into();
    }
    format!("other computers and tablets on the network open one of:\n{}", urls.concat())
}

/// An address to listen on: an IP address, or `localhost`.
fn parse_host(s: &str) -> Result<IpAddr, String> {
    if s.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    s.parse()
        .map_err(|_| format!("`{s}` is not an IP address: use `127.0.0.1` (this computer only) or `0.0.0.0` (every network)"))
}

fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    }
}

/// A `Host` header naming this computer. A page on another site can make the browser send requests
/// to 127.0.0.1 under its own host name (DNS rebinding); refusing other names keeps such pages out of
/// a server meant for this computer only.
fn local_host(host: Option<&HeaderValue>) -> bool {
    let Some(host) = host.and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    let name = name.to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost") || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

async fn handle(State(server): State<Arc<Server>>, request: Request) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let reply = if let Some(refusal) = unclear_host(&parts) {
        refusal.reply()
    } else if server.loopback && !local_host(parts.headers.get(header::HOST)) {
        ApiError::new(
            403,
            "sow::serve::host",
            "this board answers only pages opened from this computer (http://localhost or http://127.0.0.1)",
        )
        .reply()
    } else if let Some(refusal) = foreign_post(&parts) {
        refusal.reply()
    } else {
        match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY)).await {
            Err(_) => ApiError::new(408, "sow::serve::timeout", "the request's body did not come in time").reply(),
            Ok(Err(_)) => ApiError::new(413, "sow::serve::too_large", "the request is too large or was cut off").reply(),
            Ok(Ok(bytes)) => {
                let method = parts.method.as_str().to_string();
                let path = parts.uri.path().to_string();
                // Only searches take long (a computer player thinking, a hint); plain moves, the page's
                // files and the game list are answered at once, even while searches run. The semaphore is
                // never closed, so acquiring only waits, first come first served.
                let search = method == "POST" && (path == "/api/computer" || path == "/api/hint");
                let client = parts.extensions.get::<Client>().map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0);
                let queued = match search.then(|| Queued::take(&server.searches, client)).transpose() {
                    Ok(queued) => queued,
                    Err(refusal) => return finish(refusal.reply()),
                };
                let permit = match search {
                    true => Some(server.work.acquire().await.expect("the work semaphore stays open")),
                    false => None,
                };
                let for_work = Arc::clone(&server);
                let reply = tokio::task::spawn_blocking(move || respond(&for_work.catalog, &method, &path, &bytes)).await;
                drop(permit);
                drop(queued);
                reply.unwrap_or_else(|_| {
                    ApiError::new(
                        500,
                        "sow::serve::internal",
                        "the server failed on this request; nothing was changed",
                    )
                    .reply()
                })
            }
        }
    };
    finish(reply)
}

/// Why the host a request is for is unclear, if it is: two `Host` headers (a proxy and the server
/// could each read another), or a request line naming a whole URL (`GET http://other.example/ HTTP/1.1`,
/// whose host HTTP says wins over the header). A browser sends neither to the board, and a server that
/// is no proxy has no use for them; refusing them keeps the `Host` check the only word on the host.
fn unclear_host(parts: &axum::http::request::Parts) -> Option<ApiError> {
    if parts.headers.get_all(header::HOST).iter().count() > 1 {
        return Some(ApiError::new(
            400,
            "sow::serve::host",
            "the request has more than one `Host` header",
        ));
    }
    if parts.uri.scheme().is_some() || parts.uri.authority().is_some() {
        return Some(
            ApiError::new(
                400,
                "sow::serve::host",
                "the request line names a whole URL; this board is not a proxy",
            )
            .help("ask for the path alone (`GET /api/games`), with the host in the `Host` header"),
        );
    }
    None
}

/// Why a POST is not from the board's own page, if it is not: a page on another site may make a
/// browser send requests here (and so queue searches), but not with a JSON content type without a
/// preflight the server never grants, and the browser names its origin (`Origin`, `Sec-Fetch-Site`).
/// Programs that send neither header (curl, the tests) are served.
fn foreign_post(parts: &axum::http::request::Parts) -> Option<ApiError> {
    if parts.method != axum::http::Method::POST {
        return None;
    }
    let refuse = |why: &str| {
        Some(ApiError::new(403, "sow::serve::origin", format!("this request {why}")).help("open the board's own page and play there"))
    };
    let json = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return refuse("is not JSON (`Content-Type: application/json`)");
    }
    if let Some(site) = parts.headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && !(site.eq_ignore_ascii_case("same-origin") || site.eq_ignore_ascii_case("none"))
    {
        return refuse("comes from another site's page");
    }
    if let Some(origin) = parts.headers.get(header::ORIGIN) {
        let host = parts.headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let same = origin
            .to_str()
            .ok()
            .and_then(|o| o.split_once("://"))
            .is_some_and(|(scheme, rest)| scheme == "http" && Some(rest) == host);
        if !same {
            return refuse("comes from another site's page");
        }
    }
    None
}

/// The HTTP response of `reply`, with the headers every answer carries.
fn finish(reply: api::Reply) -> Response<Body> {
    let mut response = Response::new(Body::from(reply.body));
    *response.status_mut() = axum::http::StatusCode::from_u16(reply.status).expect("statuses used are valid");
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
    );
    response
}
