//! The desk's connections, bounded: at most [`MAX_CONNECTIONS`] at once (a further peer
//! waits to be accepted, the others go on being served); a connection whose peer sends
//! nothing for the idle time (a kept-alive connection left open, a request stalled) is
//! closed, and so is one whose request (headers and body) has not arrived whole within the
//! request time of its first byte (a request trickled a byte at a time). No peer can hold
//! the desk: not a slow one, not many.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// The most connections served at once.
pub(crate) const MAX_CONNECTIONS: usize = 64;

/// A listener that accepts while fewer than [`MAX_CONNECTIONS`] are open, and gives each
/// connection an idle deadline.
pub(crate) struct Bounded {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
    request: Duration,
}

impl Bounded {
    /// Connections of `inner`, closed after `idle` without a byte from the peer, or when a
    /// request has not arrived whole `request` after its first byte.
    pub(crate) fn new(inner: TcpListener, idle: Duration, request: Duration) -> Bounded {
        Bounded {
            inner,
            permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            idle,
            request,
        }
    }
}

impl axum::serve::Listener for Bounded {
    type Io = Timed;
    type Addr = std::net::SocketAddr;

    fn accept(&mut self) -> impl Future<Output = (Timed, std::net::SocketAddr)> + Send {
        let permits = self.permits.clone();
        let (idle, request) = (self.idle, self.request);
        let inner = &mut self.inner;
        async move {
            // The semaphore is never closed: a permit always comes, once one is free.
            let permit = permits.acquire_owned().await.ok();
            let (io, addr) = axum::serve::Listener::accept(inner).await;
            let deadline = Box::pin(tokio::time::sleep(idle));
            (
                Timed {
                    io,
                    idle,
                    deadline,
                    request,
                    request_deadline: None,
                    _permit: permit,
                },
                addr,
            )
        }
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection that fails its read once its peer has sent nothing for `idle`, or once a
/// request has taken `request` since its first byte without being answered.
pub(crate) struct Timed {
    io: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    request: Duration,
    /// When the request being received must have arrived: set by its first byte (the
    /// first read after an answer), cleared by the answer.
    request_deadline: Option<Pin<Box<Sleep>>>,
    /// Held while the connection is open.
    _permit: Option<OwnedSemaphorePermit>,
}

impl AsyncRead for Timed {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let late = || {
            Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the request did not arrive whole in time",
            )))
        };
        if let Some(deadline) = &mut self.request_deadline {
            if deadline.as_mut().poll(cx).is_ready() {
                return late();
            }
        }
        let before = buf.filled().len();
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    let now = Instant::now();
                    let next = now + self.idle;
                    self.deadline.as_mut().reset(next);
                    if self.request_deadline.is_none() {
                        let request = self.request;
                        let armed = Box::pin(tokio::time::sleep_until(now + request));
                        self.request_deadline = Some(armed);
                    }
                }
                Poll::Ready(result)
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the peer sent nothing for too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for Timed {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.io).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = written {
            if n > 0 {
                // A peer that takes the answer is not idle, and its request was answered.
                let next = Instant::now() + self.idle;
                self.deadline.as_mut().reset(next);
                self.request_deadline = None;
            }
        }
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}
