import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineSigningTests {
    static let date = "Fri, 06 Jun 2014 13:39:43 GMT"

    @Test func postVectorReproducesByteForByte() {
        let headers = [
            HTTPHeader("X-GCS-ServerMetaInfo", "eyJzZGsiOiJ0ZXN0In0="),
            HTTPHeader("Date", Self.date),
            HTTPHeader("X-GCS-Idempotence-Key", "idem-1"),
        ]
        let toSign = WorldlineDirectSigning.stringToSign(
            method: "post", contentType: "application/json", date: Self.date, headers: headers,
            resource: "/v2/MERCH1/payments")
        #expect(
            toSign
                == "POST\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-idempotence-key:idem-1\n"
                + "x-gcs-servermetainfo:eyJzZGsiOiJ0ZXN0In0=\n/v2/MERCH1/payments\n")
        #expect(
            WorldlineDirectSigning.authorization(keyId: "KEYID123", secret: "secret-key-abc", stringToSign: toSign)
                == "GCS v1HMAC:KEYID123:wgmnJcO4+6apek4X3EuUNvAJnugf6xWQ5AWRxcPRkJE=")
    }

    @Test func getVectorWithQueryReproducesByteForByte() {
        let resource = WorldlineDirectSigning.canonicalResource(
            url: "https://payment.preprod.direct.worldline-solutions.com/v2/MERCH1/payments/PAY1?foo=bar%20baz")
        #expect(resource == "/v2/MERCH1/payments/PAY1?foo=bar%20baz")
        let toSign = WorldlineDirectSigning.stringToSign(
            method: "GET", contentType: nil, date: Self.date, headers: [], resource: resource)
        #expect(toSign == "GET\n\nFri, 06 Jun 2014 13:39:43 GMT\n/v2/MERCH1/payments/PAY1?foo=bar%20baz\n")
        #expect(
            WorldlineDirectSigning.authorization(keyId: "KEYID123", secret: "secret-key-abc", stringToSign: toSign)
                == "GCS v1HMAC:KEYID123:npkksz/G305Jf3aQ+lXKzp1JdDrmReAhk0iJKqzaGxU=")
    }

    @Test func headerValuesAreFoldedAndTrimmed() {
        #expect(WorldlineDirectSigning.normalisedValue("  a\r\n   b\n\tc  ") == "a b c")
        let toSign = WorldlineDirectSigning.stringToSign(
            method: "GET", contentType: nil, date: "D",
            headers: [
                HTTPHeader("X-GCS-B", " two\r\n  lines "), HTTPHeader("x-gcs-a", "1"), HTTPHeader("Other", "no"),
            ],
            resource: "/r")
        #expect(toSign == "GET\n\nD\nx-gcs-a:1\nx-gcs-b:two lines\n/r\n")
    }

    @Test func datesAreRFC1123InGMT() {
        #expect(WorldlineDirectSigning.rfc1123(Date(timeIntervalSince1970: 1_402_061_983)) == Self.date)
        #expect(WorldlineDirectSigning.rfc1123(Fixtures.now) == "Sat, 08 Nov 2025 11:06:40 GMT")
    }

    @Test func canonicalResourceKeepsABaseURLPrefixAndNoEmptyQuery() {
        #expect(WorldlineDirectSigning.canonicalResource(url: "http://h:1/wl/v2/M/sessions") == "/wl/v2/M/sessions")
        #expect(WorldlineDirectSigning.canonicalResource(url: "http://h/v2/M/payments/a%2Fb") == "/v2/M/payments/a%2Fb")
    }

    @Test func sentRequestsCarryAVerifiableSignature() async throws {
        let host = FakeHost(routes: ["POST /v2/MERCH1/sessions": Fixtures.json(#"{"clientSessionId":"cs"}"#)])
        _ = try await WorldlineDirectProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(Fixtures.header("Date", of: request) == "Sat, 08 Nov 2025 11:06:40 GMT")
        #expect(Fixtures.header("Content-Type", of: request) == "application/json")
        let meta = try #require(Fixtures.header("X-GCS-ServerMetaInfo", of: request))
        let metaJSON = try JSONDecoder().decode(JSONValue.self, from: try #require(Data(base64Encoded: meta)))
        #expect(metaJSON["integrator"]?.stringValue == "Switchyard")
        #expect(request.redactHeaders.contains("Authorization"))
        // Recompute as the server would, over whatever x-gcs headers arrived.
        let toSign = WorldlineDirectSigning.stringToSign(
            method: request.method, contentType: Fixtures.header("Content-Type", of: request),
            date: try #require(Fixtures.header("Date", of: request)), headers: request.headers,
            resource: "/v2/MERCH1/sessions")
        let expected = WorldlineDirectSigning.authorization(
            keyId: Fixtures.apiKeyId, secret: Fixtures.secretApiKey, stringToSign: toSign)
        #expect(Fixtures.header("Authorization", of: request) == expected)
        #expect(expected.hasPrefix("GCS v1HMAC:KEYID123:"))
    }

    @Test func webhookVectorVerifies() {
        let body = Data(#"{"apiVersion":"v1","id":"evt1","type":"payment.captured"}"#.utf8)
        #expect(
            WorldlineDirectSigning.webhookSignature(body: body, secret: "webhook-secret")
                == "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto=")
        #expect(
            WorldlineDirectSigning.verifyWebhook(
                body: body, signature: "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto=", secret: "webhook-secret"))
        #expect(
            !WorldlineDirectSigning.verifyWebhook(
                body: body, signature: "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto", secret: "webhook-secret"))
    }
}
