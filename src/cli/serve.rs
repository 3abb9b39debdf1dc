//! `sowlang serve [FILE|DIR|GAME] [--port P] [--host H]`: a board in the browser, for a class to watch
//! and play (with no path, the games built into the program). The page (HTML, CSS, JavaScript in `web/`) is built into the binary, so there is nothing
//! to install. The server listens on the loopback address unless told otherwise, keeps no game state
//! (each request carries the moves; see `serve/api.rs`), and answers every request it cannot honour
//! with a JSON error, changing nothing.

mod api;
mod catalog;

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

/// Requests worked on at once; a computer player's search keeps a core busy for up to seconds, and
/// more at once would only make each answer slower.
const WORKERS: usize = 2;

struct Server {
    catalog: Catalog,
    loopback: bool,
    work: tokio::sync::Semaphore,
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
    let server = Arc::new(Server {
        catalog,
        loopback,
        work: tokio::sync::Semaphore::new(WORKERS),
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
    let result = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let app = axum::Router::new().fallback(handle).with_state(server);
        axum::serve(listener, app).await
    });
    match result {
        Ok(()) => 0,
        Err(e) => fail(Diagnostic::bare("sow::serve::stopped", format!("the server stopped: {e}")), 2),
    }
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
    let reply = if server.loopback && !local_host(parts.headers.get(header::HOST)) {
        ApiError::new(
            403,
            "sow::serve::host",
            "this board answers only pages opened from this computer (http://localhost or http://127.0.0.1)",
        )
        .reply()
    } else {
        match axum::body::to_bytes(body, MAX_BODY).await {
            Err(_) => ApiError::new(413, "sow::serve::too_large", "the request is too large or was cut off").reply(),
            Ok(bytes) => {
                let method = parts.method.as_str().to_string();
                let path = parts.uri.path().to_string();
                // Only game requests can take long (a computer player thinking); the page's files and the
                // game list are answered at once, even while two searches run. The semaphore is never
                // closed, so acquiring only waits.
                let permit = if method == "POST" {
                    Some(server.work.acquire().await.expect("the work semaphore stays open"))
                } else {
                    None
                };
                let for_work = Arc::clone(&server);
                let reply = tokio::task::spawn_blocking(move || respond(&for_work.catalog, &method, &path, &bytes)).await;
                drop(permit);
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
