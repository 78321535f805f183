import Foundation
import ProviderKit
import Testing

/// Plugin result codes: parsed once from the wire text, the wire text unchanged.
struct PluginResultCodeTests {
    @Test func namedCodesRoundTripAndOthersPassThrough() {
        let texts = PluginResultCode.named.map(\.rawValue)
        #expect(Set(texts).count == texts.count, "each named code has its own wire text")
        for code in PluginResultCode.named {
            #expect(PluginResultCode(parsing: code.rawValue) == code, "\(code)")
            if case .other = code { Issue.record("\(code) is named but parses as other") }
        }
        #expect(PluginResultCode(parsing: "return_url_required") == .returnURLRequired)
        #expect(PluginResultCode(parsing: "4201") == .other("4201"))
        #expect(PluginResultCode(parsing: "http_502").rawValue == "http_502")
        #expect(PluginResultCode(parsing: "NOT_SUPPORTED") == .other("NOT_SUPPORTED"))
    }

    /// The classes the gateway acts on, exactly as the host's string sets had them.
    @Test func sendingClassesAreTheHostsSets() {
        let all = PluginResultCode.named + [.other("declined"), .other("http_500")]
        #expect(
            Set(all.filter(\.isRefusalBeforeSending).map(\.rawValue))
                == ["not_supported", "misconfigured", "bad_request", "session_expired", "return_url_required"])
        #expect(
            Set(all.filter(\.isUnansweredBeforeSending).map(\.rawValue))
                == ["deadline_before_send", "worker_lost_before_send", "worker_unavailable"])
        #expect(Set(all.filter(\.isUnansweredAfterSending).map(\.rawValue)) == ["deadline_exceeded", "worker_lost"])
    }

    @Test func outcomesKeepTheirWireCodes() throws {
        let encoded = try [Outcome.notSent("x"), .unknown("y"), .authExpired].map {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) as? [String: Any]
        }
        #expect(encoded.map { $0?["code"] as? String } == ["not_sent", "unknown", "auth_expired"])
        #expect(Outcome(kind: .notSent, code: "session_expired").resultCode == .sessionExpired)
        #expect(Outcome(kind: .declined, code: "05").resultCode == .other("05"))
        #expect(Outcome(kind: .declined).resultCode == nil)
        #expect(ProviderError.notSupported(.refund).code == "not_supported")
        #expect(ProviderError.misconfigured("m").resultCode == .misconfigured)
        #expect(RevokeCredentialResult(failure: Outcome(kind: .notSent, code: "not_supported")).status == .notSupported)
        #expect(RevokeCredentialResult(failure: .notSent("n")).status == .notSent)
    }
}
