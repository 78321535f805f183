import Foundation
import ProviderKit
import ProviderTestSupport
import SwitchyardCrypto
import Testing

@testable import AntomPlugin

/// Signatures checked against the `openssl` command-line tool, independent of SwitchyardCrypto.
@Suite struct AntomSigningInteropTests {
    static let content = Array(
        "POST /ams/sandbox/api/v1/payments/pay\nSANDBOX_5X00000000000000.1762600000000.{\"a\":\"b\"}".utf8)

    @Test func ourSignatureEqualsTheCLIs() throws {
        let tool = try OpenSSLCLI()
        defer { tool.cleanUp() }
        try tool.write("key.pem", Array(Fixtures.merchantKey.pkcs8PEM.utf8))
        try tool.write("content.bin", Self.content)
        let cli = try tool.mustRun(["dgst", "-sha256", "-sign", "key.pem", "content.bin"])
        #expect(cli.count == 256)
        let ours = try AntomSigning.sign(Self.content, with: Fixtures.merchantKey)
        // RSASSA-PKCS1-v1_5 is deterministic: both sides produce the same bytes.
        #expect(ours == FormEncoding.quotePlus(Base64.encode(cli)))
    }

    @Test func theCLIVerifiesOurSignature() throws {
        let tool = try OpenSSLCLI()
        defer { tool.cleanUp() }
        let encoded = try AntomSigning.sign(Self.content, with: Fixtures.merchantKey)
        let signature = try #require(FormEncoding.percentDecode(encoded).flatMap(Base64.decode))
        try tool.write("public.pem", Array(Fixtures.merchantKey.publicKey.pem.utf8))
        try tool.write("content.bin", Self.content)
        try tool.write("sig.bin", signature)
        let good = try tool.run(["dgst", "-sha256", "-verify", "public.pem", "-signature", "sig.bin", "content.bin"])
        #expect(good.status == 0)
        try tool.write("other.bin", Self.content + [0x20])
        let bad = try tool.run(["dgst", "-sha256", "-verify", "public.pem", "-signature", "sig.bin", "other.bin"])
        #expect(bad.status != 0)
    }

    @Test func weVerifyTheCLIsSignatureOfAResponse() throws {
        let tool = try OpenSSLCLI()
        defer { tool.cleanUp() }
        let body = #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}"#
        let content = AntomSigning.content(
            path: "/ams/api/v1/payments/inquiryPayment", clientId: "5X00000000000000",
            time: "2025-11-08T11:06:41+00:00", body: Array(body.utf8))
        try tool.write("antom.pem", Array(Fixtures.antomKey.pkcs8PEM.utf8))
        try tool.write("content.bin", content)
        let signature = try tool.mustRun(["dgst", "-sha256", "-sign", "antom.pem", "content.bin"])
        let header = "algorithm=RSA256, keyVersion=1, signature=" + FormEncoding.quotePlus(Base64.encode(signature))
        #expect(AntomSigning.verify(content, headerValue: header, key: Fixtures.antomKey.publicKey))
    }
}
