import Foundation
import Testing

@testable import SwitchyardCore

struct UnknownKeysTests {
    /// A section with a nested object, an array of objects and a free-form dictionary.
    struct Sample: Decodable {
        struct Route: Decodable {
            var name: String
            var weight: Int?
        }

        struct Retry: Decodable {
            var attempts: Int = 1
            var backoffMs: Int?

            enum CodingKeys: String, CodingKey {
                case attempts
                case backoffMs = "backoff_ms"
            }
        }

        var routes: [Route] = []
        var retry: Retry?
        var labels: [String: String] = [:]
        var enabled = false

        enum CodingKeys: String, CodingKey {
            case routes, retry, labels, enabled
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            routes = try c.decodeIfPresent([Route].self, forKey: .routes) ?? []
            retry = try c.decodeIfPresent(Retry.self, forKey: .retry)
            labels = try c.decodeIfPresent([String: String].self, forKey: .labels) ?? [:]
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? false
        }
    }

    static func unknown(_ json: String, _ readers: [any Decodable.Type] = [Sample.self]) throws -> [String] {
        try UnknownKeys.find(in: Data(json.utf8), readBy: readers).map(\.description)
    }

    @Test func knownKeysAtEveryDepthPass() throws {
        let json = #"""
            {"routes":[{"name":"a","weight":2},{"name":"b"}],"retry":{"attempts":3,"backoff_ms":null},
             "labels":{"anything":"goes","really":"yes"},"enabled":true}
            """#
        #expect(try Self.unknown(json) == [])
        #expect(try Self.unknown("{}") == [])
    }

    @Test func unknownKeysAreNamedByTheirPathWithASuggestion() throws {
        let json = #"""
            {"routes":[{"name":"a"},{"name":"b","wieght":2}],"retry":{"attempts":3,"backof_ms":10,"zzz":1},
             "enabeld":true,"completely_different":{"nested":1}}
            """#
        #expect(
            try Self.unknown(json) == [
                "completely_different: unknown key",
                "enabeld: unknown key, did you mean enabled?",
                "retry.backof_ms: unknown key, did you mean backoff_ms?",
                "retry.zzz: unknown key",
                "routes[1].wieght: unknown key, did you mean weight?",
            ])
    }

    @Test func thePlatformPolicyKnowsItsOwnSectionsAndRefusesTypos() throws {
        let json = #"""
            {"adaptive_routing":{"windw_seconds":600,"min_samples":5},"failover":{"attempt_limit":2},
             "webhooks":{"retry_schedule_ms":[1000],"require_https":false,"alow_hosts":[]},
             "notifcations":{},"plugins":{"mode":"pinned"}}
            """#
        #expect(
            try Self.unknown(json, [PlatformPolicy.self]) == [
                "adaptive_routing.windw_seconds: unknown key, did you mean window_seconds?",
                "notifcations: unknown key, did you mean notifications?",
                "plugins: unknown key",
                "webhooks.alow_hosts: unknown key, did you mean allow_hosts?",
            ])
    }

    @Test func everyPlatformSectionAndFieldTheEncoderWritesIsKnown() throws {
        // What the policy writes (the reload endpoint answers it) it reads back without an unknown key.
        let encoded = try JSONEncoder().encode(PlatformPolicy())
        #expect(try UnknownKeys.find(in: encoded, readBy: [PlatformPolicy.self]) == [])
        let sections = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(sections["failover"] != nil && sections["webhooks"] != nil)
    }

    @Test func decodingErrorsStillSurface() {
        #expect(throws: DecodingError.self) {
            try UnknownKeys.find(in: Data("{not json".utf8), readBy: [PlatformPolicy.self])
        }
    }

    @Test func suggestionsOnlyForCloseKeys() {
        let known: Set = ["window_seconds", "window_attempts", "min_samples"]
        #expect(UnknownKeys.suggestion(for: "windw_seconds", among: known) == "window_seconds")
        #expect(UnknownKeys.suggestion(for: "window_attempt", among: known) == "window_attempts")
        #expect(UnknownKeys.suggestion(for: "max_samples", among: known) == "min_samples")
        #expect(UnknownKeys.suggestion(for: "colour", among: known) == nil)
        #expect(UnknownKeys.suggestion(for: "ab", among: ["xy"]) == nil)
        #expect(UnknownKeys.editDistance("kitten", "sitting") == 3)
        #expect(UnknownKeys.editDistance("", "abc") == 3)
    }
}
