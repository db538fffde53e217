//! The desk's connections, bounded: at most [`MAX_CONNECTIONS`] at once (a further peer
//! waits to be accepted, the others go on being served), and a connection whose peer sends
//! nothing for the idle time (a request's headers or body trickled, or a kept-alive
//! connection left open) is closed. No peer can hold the desk: not a slow one, not many.

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
}

impl Bounded {
    pub(crate) fn new(inner: TcpListener, idle: Duration) -> Bounded {
        Bounded {
            inner,
            permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            idle,
        }
    }
}

impl axum::serve::Listener for Bounded {
    type Io = Timed;
    type Addr = std::net::SocketAddr;

    fn accept(&mut self) -> impl Future<Output = (Timed, std::net::SocketAddr)> + Send {
        let permits = self.permits.clone();
        let idle = self.idle;
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

/// A connection that fails its read once its peer has sent nothing for `idle`.
pub(crate) struct Timed {
    io: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    /// Held while the connection is open.
    _permit: Option<OwnedSemaphorePermit>,
}

impl AsyncRead for Timed {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    let next = Instant::now() + self.idle;
                    self.deadline.as_mut().reset(next);
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
                // A peer that takes the answer is not idle.
                let next = Instant::now() + self.idle;
                self.deadline.as_mut().reset(next);
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
