//! The server's Prometheus metrics, with prometheus-client: one registry per server,
//! so that servers sharing a process (the tests, the desktop app) never mix their
//! figures. Requests are counted by route pattern, method and status, and timed by
//! route; the pool and the scoring queues are read when scraped.

use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ConnectionLabels {
    state: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct QueueLabels {
    area: i32,
    status: i32,
}

type Durations = Family<RouteLabels, Histogram, fn() -> Histogram>;

/// Everything the server measures.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Durations,
    in_flight: Gauge,
    connections: Family<ConnectionLabels, Gauge>,
    connections_max: Gauge,
    scoring_tasks: Family<QueueLabels, Gauge>,
}

/// Counts a request as in flight until dropped.
pub struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// 1 ms to about 16 s, doubling.
fn duration_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 15))
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("scoredesk");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route pattern and status",
            requests.clone(),
        );
        let durations: Durations = Family::new_with_constructor(duration_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's headers to its response, by method and route pattern",
            durations.clone(),
        );
        let in_flight = Gauge::default();
        registry.register(
            "http_requests_in_flight",
            "Requests being served",
            in_flight.clone(),
        );
        let connections = Family::<ConnectionLabels, Gauge>::default();
        registry.register(
            "db_connections",
            "Database connections of the pool, idle or in use",
            connections.clone(),
        );
        let connections_max = Gauge::default();
        registry.register(
            "db_connections_max",
            "The most connections the pool opens",
            connections_max.clone(),
        );
        let scoring_tasks = Family::<QueueLabels, Gauge>::default();
        registry.register(
            "scoring_tasks",
            "Scoring tasks by customer area and status (0: open, the scoring queue)",
            scoring_tasks.clone(),
        );
        Self {
            registry,
            requests,
            durations,
            in_flight,
            connections,
            connections_max,
            scoring_tasks,
        }
    }
}

impl Metrics {
    pub fn request_started(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }

    /// Records an answered request. `method` is one of a fixed set (see
    /// [`method_label`]) and `route` a pattern, so that labels stay few.
    pub fn request_answered(&self, method: &str, route: String, status: u16, took: Duration) {
        let method = method_label(method);
        self.durations
            .get_or_create(&RouteLabels {
                method,
                route: route.clone(),
            })
            .observe(took.as_secs_f64());
        self.requests
            .get_or_create(&RequestLabels {
                method,
                route,
                status,
            })
            .inc();
    }

    /// The connection pool as it is now: connections open (idle or in use), idle,
    /// and the most it opens.
    pub fn set_pool(&self, open: u32, idle: u32, max: u32) {
        for (state, value) in [("idle", idle), ("in_use", open.saturating_sub(idle))] {
            self.connections
                .get_or_create(&ConnectionLabels { state })
                .set(i64::from(value));
        }
        self.connections_max.set(i64::from(max));
    }

    /// The scoring tasks as they are now, `(area, status, tasks)`; an area and status
    /// left out is gone from the next scrape.
    pub fn set_scoring_tasks(&self, counts: impl IntoIterator<Item = (i32, i32, i64)>) {
        self.scoring_tasks.clear();
        for (area, status, tasks) in counts {
            self.scoring_tasks
                .get_or_create(&QueueLabels { area, status })
                .set(tasks);
        }
    }

    /// The OpenMetrics text of everything.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }
}

/// The methods HTTP and OData clients use; anything else is counted as `other`, so
/// that a client cannot make up labels.
pub fn method_label(method: &str) -> &'static str {
    const KNOWN: [&str; 8] = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "MERGE", "DELETE", "OPTIONS",
    ];
    KNOWN
        .into_iter()
        .find(|known| *known == method)
        .unwrap_or("other")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_pattern_and_the_queues_read_when_rendered() {
        let metrics = Metrics::default();
        let route = "/deliveryodata/{area}/ScoringTasks(…)".to_owned();
        metrics.request_answered("PUT", route.clone(), 204, Duration::from_millis(3));
        metrics.request_answered("PUT", route, 204, Duration::from_millis(5));
        metrics.request_answered("BREW", "(unknown)".into(), 405, Duration::ZERO);
        metrics.set_pool(5, 2, 16);
        metrics.set_scoring_tasks([(7, 0, 41)]);
        let text = metrics.render();
        assert!(text.contains(r#"scoredesk_http_requests_total{method="PUT",route="/deliveryodata/{area}/ScoringTasks(…)",status="204"} 2"#), "{text}");
        assert!(
            text.contains(
                r#"scoredesk_http_requests_total{method="other",route="(unknown)",status="405"} 1"#
            ),
            "{text}"
        );
        assert!(text.contains(r#"scoredesk_http_request_duration_seconds_count{method="PUT",route="/deliveryodata/{area}/ScoringTasks(…)"} 2"#), "{text}");
        assert!(
            text.contains(r#"scoredesk_db_connections{state="in_use"} 3"#),
            "{text}"
        );
        assert!(
            text.contains(r#"scoredesk_scoring_tasks{area="7",status="0"} 41"#),
            "{text}"
        );
        // A queue that is gone from the counts is gone from the next scrape.
        metrics.set_scoring_tasks([]);
        let text = metrics.render();
        assert!(!text.contains("scoredesk_scoring_tasks{"), "{text}");
    }
}
