//! Per-client limits: how many connections one client may hold open and how many
//! requests per second it may send, so that a few clients cannot lock everyone
//! else out of the shared connection slots and threads.
//!
//! A client is its network address: an IPv4 address, or the /64 prefix of an IPv6
//! address (one host usually holds a whole /64). Clients behind one NAT or proxy
//! share their limits, so the defaults ([`params::CLIENT_CONNECTIONS`],
//! [`params::CLIENT_RATE`]) leave room for a tournament hall behind one router.
//!
//! The request rate is counted by [`governor`] (the generic cell rate algorithm,
//! keyed by client); connections are counted here.

use crate::params;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Who a client is, for its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The client of peer address `ip`: IPv4 as it is (also when mapped into IPv6),
    /// IPv6 cut to its /64 network.
    ///
    /// ```
    /// use chuhan_serve::guard::ClientKey;
    /// let a = ClientKey::of("2001:db8::1".parse().unwrap());
    /// let b = ClientKey::of("2001:db8::2".parse().unwrap());
    /// assert_eq!(a, b);
    /// assert_eq!(
    ///     ClientKey::of("::ffff:10.0.0.1".parse().unwrap()),
    ///     ClientKey::of("10.0.0.1".parse().unwrap())
    /// );
    /// ```
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let s = v6.segments();
                    ClientKey(IpAddr::V6(Ipv6Addr::new(
                        s[0], s[1], s[2], s[3], 0, 0, 0, 0,
                    )))
                }
            },
        }
    }
}

/// The limits of all clients: open connections per client, and requests per
/// second per client.
pub struct Clients {
    open: Mutex<HashMap<ClientKey, usize>>,
    max_open: usize,
    rate: Option<DefaultKeyedRateLimiter<ClientKey>>,
}

impl Clients {
    /// At most `max_open` connections per client (0: no limit) and `rate` requests
    /// per second, in bursts of up to twice as many (rate 0: no limit).
    pub fn new(max_open: usize, rate: u32) -> Clients {
        let rate = NonZeroU32::new(rate).map(|r| {
            let burst = r.saturating_mul(NonZeroU32::MIN.saturating_add(1));
            RateLimiter::keyed(Quota::per_second(r).allow_burst(burst))
        });
        Clients {
            open: Mutex::new(HashMap::new()),
            max_open,
            rate,
        }
    }

    /// A connection slot for `client`, or `None` when it already holds
    /// its maximum. The slot is given back when dropped.
    pub fn connect(self: &Arc<Self>, client: ClientKey) -> Option<ClientSlot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let n = open.entry(client).or_insert(0);
        if self.max_open > 0 && *n >= self.max_open {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            clients: self.clone(),
            client,
        })
    }

    /// Connections `client` holds open now.
    pub fn open(&self, client: ClientKey) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.get(&client).copied().unwrap_or(0)
    }

    /// Counts one request of `client`: `Err(wait)` when it is over its rate, with
    /// the time after which the next request would be allowed.
    pub fn request(&self, client: ClientKey) -> Result<(), Duration> {
        let Some(rate) = &self.rate else {
            return Ok(());
        };
        rate.check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }

    /// Forgets the request counts of clients quiet long enough to be back at a full
    /// burst, so the table holds only recent clients (called now and then).
    pub fn forget_quiet(&self) {
        if let Some(rate) = &self.rate {
            rate.retain_recent();
            rate.shrink_to_fit();
        }
    }
}

impl Default for Clients {
    fn default() -> Clients {
        Clients::new(params::CLIENT_CONNECTIONS, params::CLIENT_RATE)
    }
}

/// One open connection of a client; dropping it frees the place.
pub struct ClientSlot {
    clients: Arc<Clients>,
    client: ClientKey,
}

impl ClientSlot {
    /// The client holding it.
    pub fn client(&self) -> ClientKey {
        self.client
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self
            .clients
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> ClientKey {
        ClientKey::of(s.parse().unwrap())
    }

    #[test]
    fn connections_are_capped_per_client_and_given_back() {
        let c = Arc::new(Clients::new(2, 0));
        let a1 = c.connect(key("127.0.0.2")).unwrap();
        let _a2 = c.connect(key("127.0.0.2")).unwrap();
        assert!(c.connect(key("127.0.0.2")).is_none());
        // Another client is not affected.
        let _b = c.connect(key("127.0.0.1")).unwrap();
        drop(a1);
        assert_eq!(c.open(key("127.0.0.2")), 1);
        assert!(c.connect(key("127.0.0.2")).is_some());
    }

    #[test]
    fn requests_beyond_the_burst_wait() {
        let c = Clients::new(0, 2);
        for _ in 0..4 {
            assert!(c.request(key("::1")).is_ok());
        }
        let wait = c.request(key("::1")).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1));
        // Others still have their burst.
        assert!(c.request(key("127.0.0.1")).is_ok());
    }

    #[test]
    fn no_limit_when_zero() {
        let c = Arc::new(Clients::new(0, 0));
        let slots: Vec<_> = (0..1000).map(|_| c.connect(key("10.0.0.1"))).collect();
        assert!(slots.iter().all(Option::is_some));
        assert!((0..1000).all(|_| c.request(key("10.0.0.1")).is_ok()));
    }
}
