import Testing

@testable import SwitchyardCore

struct PublicURLChoiceTests {
    static func decide(
        _ configured: String?, host: String = "127.0.0.1", external: Bool, allowLoopback: Bool = false
    ) -> Result<String, PublicURLRefusal> {
        PublicURLChoice(
            configured: configured, host: host, port: 8080, externalDatabase: external, allowLoopback: allowLoopback
        ).decide()
    }

    @Test func theEmbeddedDefaultUsesItsListeningAddressWithoutAFlag() {
        #expect(Self.decide(nil, external: false) == .success("http://127.0.0.1:8080"))
        #expect(Self.decide("", host: "0.0.0.0", external: false) == .success("http://127.0.0.1:8080"))
        #expect(Self.decide(nil, host: "::1", external: false) == .success("http://[::1]:8080"))
        #expect(Self.decide("http://localhost:9000", external: false) == .success("http://localhost:9000"))
    }

    @Test func anExternalDatabaseNeedsAPublicURLThatIsNotLoopback() {
        #expect(Self.decide(nil, host: "0.0.0.0", external: true) == .failure(.missing))
        for loopback in [
            "http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:8080", "https://LOCALHOST.",
            "http://api.localhost", "http://[::1]:8080", "http://0.0.0.0:8080", "http://[::]", "http://2130706433",
            "http://[::ffff:127.0.0.1]",
        ] {
            #expect(Self.decide(loopback, external: true) == .failure(.loopback(loopback)), "\(loopback)")
        }
        #expect(
            Self.decide("https://payments.example.com", external: true) == .success("https://payments.example.com"))
        #expect(Self.decide("http://10.0.0.5:8080/base", external: true) == .success("http://10.0.0.5:8080/base"))
    }

    @Test func loopbackIsAllowedOnlyWhenAskedFor() {
        #expect(Self.decide(nil, external: true, allowLoopback: true) == .success("http://127.0.0.1:8080"))
        #expect(
            Self.decide("http://127.0.0.1:9000", external: true, allowLoopback: true)
                == .success("http://127.0.0.1:9000"))
    }

    @Test func aMalformedURLIsRefusedEitherWay() {
        for bad in ["payments.example.com", "ftp://example.com", "http://", "https://example.com/?a=1", "http:///x"] {
            #expect(Self.decide(bad, external: true) == .failure(.malformed(bad)), "\(bad)")
            #expect(Self.decide(bad, external: false, allowLoopback: true) == .failure(.malformed(bad)), "\(bad)")
        }
    }

    @Test func theRefusalsNameTheFlagAndTheVariable() {
        for refusal in [PublicURLRefusal.missing, .loopback("http://127.0.0.1"), .malformed("x")] {
            #expect(refusal.description.contains("--public-url"))
            #expect(refusal.description.contains("SWITCHYARD_PUBLIC_URL"))
        }
        #expect(PublicURLRefusal.loopback("http://127.0.0.1").description.contains("--allow-loopback-public-url"))
        #expect(PublicURLRefusal.missing.code == "public_url_missing")
    }
}
