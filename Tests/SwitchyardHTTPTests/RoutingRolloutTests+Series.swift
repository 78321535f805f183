import Foundation
import SwitchyardCore
import Testing

/// `GET …/routing/rollout/series`: the running rollout's two curves, then the ended one's, and bad queries
/// refused with the parameter they are about.
extension RoutingRolloutTests {
    static func arm(_ point: [String: Any]?, _ name: String) -> [String: Any] {
        point?[name] as? [String: Any] ?? [:]
    }

    @Test func theSeriesShowsEachArmsCurveBucketedByTheElapsedTime() async throws {
        let clock = TestClock()
        try await Self.with(liveAnswer: 200, draftAnswer: 402, clock: clock) { stack, shop in
            let key = shop.merchant.apiKey
            let series = "/v1/routing/rollout/series"
            let none = try await stack.send(.GET, series, token: key)
            #expect(none.status == 404, "\(Self.text(none))")
            #expect(none.errorCode == "not_found")
            for (query, param) in [
                ("buckets=0", "buckets"), ("buckets=201", "buckets"), ("buckets=ten", "buckets"),
                ("rollout=latest", "rollout"),
            ] {
                let refused = try await stack.send(.GET, series + "?" + query, token: key)
                #expect(refused.status == 400, "\(query): \(Self.text(refused))")
                #expect(refused.errorCode == "invalid_parameter")
                #expect((refused.json["error"] as? [String: Any])?["param"] as? String == param)
            }
            #expect(try await stack.send(.GET, series + "?window=1", token: key).errorCode == "unknown_parameter")

            let started = try await stack.send(
                .PUT, "/v1/routing", token: key,
                json: [
                    "rules": Self.draftRules(shop),
                    "rollout": ["share": 0.5, "min_samples": 1_000, "max_duration_seconds": 86_400],
                ])
            try #require(started.status == 200, "\(Self.text(started))")
            let id = try #require((started.json["rollout"] as? [String: Any])?["id"] as? String)
            for n in 0..<12 { _ = try await Self.pay(stack, shop, reference: "curve-\(n)") }
            clock.advance(by: 3_600)
            let read = try await stack.send(.GET, series + "?buckets=5", token: key)
            try #require(read.status == 200, "\(Self.text(read))")
            #expect(read.json["object"] as? String == "routing_rollout_series")
            #expect(read.json["ended_at"] is NSNull)
            #expect(read.json["bucket_seconds"] as? Int == 900, "an hour in at most 5 buckets: 15 minutes each")
            let rollout = try #require(read.json["rollout"] as? [String: Any])
            #expect(rollout["id"] as? String == id)
            #expect(rollout["status"] as? String == "running")
            let points = try #require(read.json["points"] as? [[String: Any]])
            #expect(points.count == 5, "the last bucket ends now, a little after the hour")
            let last = points.last
            let (control, draft) = (Self.arm(last, "control"), Self.arm(last, "draft"))
            let samples = (control["samples"] as? Int ?? 0, draft["samples"] as? Int ?? 0)
            #expect(samples.0 + samples.1 == 12, "\(points)")
            #expect(samples.0 > 0 && samples.1 > 0, "both arms took payments")
            #expect(control["rate"] as? Double == 1)
            #expect(draft["rate"] as? Double == 0)
            #expect((last?["interval"] as? [String: Any])?["difference_pp"] as? Double == -100)
            #expect(Self.arm(points.first, "control")["samples"] as? Int == samples.0, "all answered in the first")
            #expect((rollout["control"] as? [String: Any])?["samples"] as? Int == samples.0)

            let admin = "/admin/v1/tenants/\(shop.merchant.tenantId)/routing/rollout/series"
            let twin = try await stack.send(.GET, admin + "?rollout=\(id)", token: stack.operatorToken)
            #expect(twin.status == 200, "\(Self.text(twin))")
            #expect((twin.json["rollout"] as? [String: Any])?["id"] as? String == id)
            #expect(((twin.json["points"] as? [[String: Any]])?.count ?? 0) <= RolloutSeries.defaultBuckets)

            let stopped = try await stack.send(.POST, "/v1/routing/rollout/stop", token: key)
            #expect(stopped.status == 200)
            #expect(try await stack.send(.GET, series + "?rollout=running", token: key).status == 404)
            let ended = try await stack.send(.GET, series + "?rollout=last_ended", token: key)
            #expect(ended.status == 200, "\(Self.text(ended))")
            #expect((ended.json["rollout"] as? [String: Any])?["status"] as? String == "stopped")
            #expect((ended.json["rollout"] as? [String: Any])?["reason"] as? String == "stopped")
            #expect(ended.json["ended_at"] is String)
        }
    }
}
