//! Whether the client of a connection has gone while its answer is computed.
//!
//! A client that sends its request and then closes its side for writing (`nc -N`, socat, many
//! scripts: a half-close) still waits for the answer, so hyper is told to allow it
//! (`half_close`): it then reads nothing more of a connection until its answer is written, and
//! the end of the request's bytes no longer drops the handler, as it did (the client got no
//! answer at all). A client that has gone for good (its connection reset, as a process killed
//! or a socket closed with unread bytes leaves it) is seen here instead: the handler asks
//! [`Peer::gone`] while it waits, and stops the work. A socket closed with nothing unread
//! sends the same end of bytes as a half-close, and only writing to it would tell the two
//! apart; such a client's answer is computed (within the budget) and cached.

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The connection's descriptor while it is open, `None` once it is closed (the descriptor may
/// then be another connection's).
#[derive(Clone)]
pub struct Peer(Arc<Mutex<Option<RawFd>>>);

impl Peer {
    /// Whether the connection was reset or closed both ways: its client will read no answer.
    pub fn gone(&self) -> bool {
        // Held while the descriptor is asked, so that it cannot be closed meanwhile.
        let Ok(open) = self.0.lock() else { return false };
        let Some(fd) = *open else { return true };
        let mut asked = libc::pollfd { fd, events: 0, revents: 0 };
        // SAFETY: one pollfd, of a descriptor kept open by the lock held; no wait.
        let ready = unsafe { libc::poll(&mut asked, 1, 0) };
        ready == 1 && asked.revents & (libc::POLLHUP | libc::POLLERR) != 0
    }
}

/// A connection that tells its [`Peer`] when it is closed.
pub struct Watched<T> {
    inner: T,
    peer: Peer,
}

impl<T: AsRawFd> Watched<T> {
    pub fn new(inner: T) -> (Watched<T>, Peer) {
        let peer = Peer(Arc::new(Mutex::new(Some(inner.as_raw_fd()))));
        (Watched { inner, peer: peer.clone() }, peer)
    }
}

impl<T> Drop for Watched<T> {
    fn drop(&mut self) {
        // Before `inner`, and so its descriptor, is dropped.
        if let Ok(mut open) = self.peer.0.lock() {
            *open = None;
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
