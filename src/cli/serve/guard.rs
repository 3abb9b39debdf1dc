//! The listening socket, guarded against clients that hold connections (issue 22: 300 of 300 slow or
//! idle connections were still held after a minute, and at the open-file limit the board stopped
//! answering everyone). At most [`MAX_CONNECTIONS`] are open at once (the next waits to be accepted); a
//! connection on which the client sends nothing for [`IDLE`] (slow headers, a body that never comes, a
//! kept-alive connection left open) is closed, and none lives longer than [`LIFETIME`], so that a
//! client trickling a byte now and then cannot hold one for ever either.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// Connections open at once: a class's browsers, each with a few, and far below the open-file limit.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a client may send nothing while the server waits to read: longer than a request may wait
/// for its answer (a search queued behind others), so that only a silent client is cut off.
pub const IDLE: Duration = Duration::from_secs(30);
/// How long a connection may live.
pub const LIFETIME: Duration = Duration::from_secs(300);

/// A listener whose connections are bounded in number, idleness and age.
pub struct Guarded {
    listener: TcpListener,
    open: Arc<Semaphore>,
}

impl Guarded {
    pub fn new(listener: TcpListener) -> Guarded {
        Guarded {
            listener,
            open: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
        }
    }
}

impl axum::serve::Listener for Guarded {
    type Io = Connection;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Connection, std::net::SocketAddr) {
        // Never closed, so acquiring only waits; the permit goes with the connection.
        let permit = Arc::clone(&self.open)
            .acquire_owned()
            .await
            .expect("the connection semaphore stays open");
        loop {
            match self.listener.accept().await {
                Ok((stream, addr)) => {
                    let now = Instant::now();
                    return (
                        Connection {
                            stream,
                            _permit: permit,
                            idle: Box::pin(tokio::time::sleep(IDLE)),
                            end: Box::pin(tokio::time::sleep_until(now + LIFETIME)),
                        },
                        addr,
                    );
                }
                // Out of file descriptors and the like: wait a little, as axum's own listener does.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.listener.local_addr()
    }
}

/// One connection: the socket, its place among the open ones, and its two clocks.
pub struct Connection {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Pin<Box<Sleep>>,
    end: Pin<Box<Sleep>>,
}

impl Connection {
    /// An error once the connection has been idle or alive too long; registers for the wake-up otherwise.
    fn expired(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        if self.end.as_mut().poll(cx).is_ready() {
            return Some(io::Error::new(io::ErrorKind::TimedOut, "the connection lived too long"));
        }
        if self.idle.as_mut().poll(cx).is_ready() {
            return Some(io::Error::new(io::ErrorKind::TimedOut, "the client sent nothing for too long"));
        }
        None
    }
}

impl AsyncRead for Connection {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(r) => {
                this.idle.as_mut().reset(Instant::now() + IDLE);
                Poll::Ready(r)
            }
            Poll::Pending => match this.expired(cx) {
                Some(e) => Poll::Ready(Err(e)),
                None => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.idle.as_mut().reset(Instant::now() + IDLE);
                Poll::Ready(r)
            }
            // A client that reads nothing while an answer waits is idle too.
            Poll::Pending => match this.expired(cx) {
                Some(e) => Poll::Ready(Err(e)),
                None => Poll::Pending,
            },
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
