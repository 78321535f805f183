import Foundation
import SwitchyardCore
import SwitchyardObservability
import Testing

/// `GET /metrics` on the API port (operator only) and on the separate metrics listener: both bring the
/// scrape-time gauges up to date before rendering, and what they render follows Prometheus' conventions.
@Suite(.serialized) struct MetricsRouterTests {
    /// The value of the unlabelled sample `name` in `text`.
    static func sample(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    /// A backlog of `count` unknown payments, the oldest unknown for `age` seconds.
    static func backlog(_ world: RouterWorld, count: Int64, age: TimeInterval) {
        world.probes.set(
            answers: true,
            gauges: StoreGauges(
                unknownPayments: count, oldestUnknownSince: world.clock.date.addingTimeInterval(-age),
                webhookDeliveries: ["dead": count]))
    }

    @Test func theMetricsListenerShowsTheGaugesAsTheyAreNow() async throws {
        let world = RouterWorld()
        try await world.testMetricsListener { listener in
            Self.backlog(world, count: 3, age: 90)
            let first = try await listener.send(.get, "/metrics")
            #expect(first.status == .ok)
            #expect(Self.sample(first.text, MetricName.unknownPayments) == 3, "\(first.text)")
            #expect(Self.sample(first.text, MetricName.unknownOldestAge) == 90)
            // The backlog grows and ages; no one scrapes the API port in between.
            Self.backlog(world, count: 7, age: 300)
            let second = try await listener.send(.get, "/metrics")
            #expect(Self.sample(second.text, MetricName.unknownPayments) == 7, "\(second.text)")
            #expect(Self.sample(second.text, MetricName.unknownOldestAge) == 300)
            #expect(second.text.contains("\(MetricName.webhookDeliveries){state=\"dead\"} 7"))
        }
    }

    @Test func theAPIPortShowsTheSameGaugesToTheOperatorOnly() async throws {
        let world = RouterWorld()
        try await world.test { client in
            Self.backlog(world, count: 4, age: 10)
            #expect(try await client.send(.get, "/metrics").status == .unauthorized)
            let scrape = try await client.send(.get, "/metrics", token: RouterWorld.operatorToken)
            #expect(Self.sample(scrape.text, MetricName.unknownPayments) == 4, "\(scrape.text)")
            Self.backlog(world, count: 5, age: 10)
            let again = try await client.send(.get, "/metrics", token: RouterWorld.operatorToken)
            #expect(Self.sample(again.text, MetricName.unknownPayments) == 5)
        }
    }

    @Test func everyFamilyHasHelpAndAConventionalName() async throws {
        let world = RouterWorld()
        try await world.test { client in
            // One request answered with an error first, so the HTTP families have samples.
            #expect(try await client.send(.get, "/metrics").status == .unauthorized)
            let scrape = try await client.send(.get, "/metrics", token: RouterWorld.operatorToken).text
            let lines = scrape.split(separator: "\n").map(String.init)
            var types: [String: String] = [:]
            for (index, line) in lines.enumerated() where line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ").map(String.init)
                types[parts[2]] = parts[3]
                #expect(index > 0 && lines[index - 1].hasPrefix("# HELP \(parts[2]) "), "\(parts[2]) has no help")
            }
            #expect(types[MetricName.httpRequests] == "counter", "\(scrape)")
            #expect(types[MetricName.httpRequestErrors] == "counter")
            #expect(types[MetricName.httpRequestDuration] == "histogram")
            #expect(types["hb_requests"] == nil && types["http_server_request_duration"] == nil)
            for (name, type) in types {
                if type == "counter" { #expect(name.hasSuffix("_total"), "\(name)") }
                if type == "histogram" { #expect(name.hasSuffix("_seconds"), "\(name)") }
            }
        }
    }

    @Test func helpGoesBeforeTheTypeLineOfTheFamiliesItKnows() {
        let scrape = """
            # TYPE switchyard_refunds_total counter
            switchyard_refunds_total 1
            # TYPE other gauge
            other 2

            """
        #expect(
            MetricHelp.annotate(scrape)
                == "# HELP switchyard_refunds_total \(MetricHelp.text[MetricName.refunds]!)\n" + scrape)
        #expect(MetricHelp.annotate("") == "")
        #expect(MetricHelp.annotate("other 2") == "other 2")
    }
}
