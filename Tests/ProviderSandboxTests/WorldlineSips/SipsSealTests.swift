import Foundation
import Testing

@testable import ProviderSandbox

@Suite struct SipsSealTests {
    static let vectorJSON = """
        {"amount":2,"automaticResponseUrl":"http://test.com","currencyCode":"978","interfaceVersion":"IR_WS_2.19",\
        "normalReturnUrl":"http://localhost/return.php","orderChannel":"INTERNET","templateName":"custom",\
        "transactionReference":"test","keyVersion":1,"sealAlgorithm":"HMAC-SHA-256"}
        """
    static let vectorString = "2http://test.com978IR_WS_2.19http://localhost/return.phpINTERNETcustomtest"
    static let vectorSeal = "2442cf7b069bfcaba1f432ebd663d4f57932d0059c117b9cd4466a311c946508"
    static let vectorKey = "002001000000001_KEY1"

    @Test func sandboxReproducesTheContractVector() throws {
        let message = try #require(SipsJSON.parse(Array(Self.vectorJSON.utf8)))
        #expect(WorldlineSipsSeal.sealString(of: message) == Self.vectorString)
        #expect(WorldlineSipsSeal.seal(of: message, secret: Self.vectorKey) == Self.vectorSeal)
        #expect(WorldlineSipsSeal.verify(Self.vectorSeal.uppercased(), of: message, secret: Self.vectorKey))
        #expect(!WorldlineSipsSeal.verify(Self.vectorSeal, of: message, secret: "002001000000002_KEY1"))
    }

    @Test func sandboxPlacesAListAtItsNamesSlot() throws {
        let text = Self.vectorJSON.replacingOccurrences(
            of: "\"templateName\"", with: "\"paymentMeanBrandList\":[\"VISA\",\"MASTERCARD\"],\"templateName\"")
        let message = try #require(SipsJSON.parse(Array(text.utf8)))
        let expected = "2http://test.com978IR_WS_2.19http://localhost/return.phpINTERNETVISAMASTERCARDcustomtest"
        #expect(WorldlineSipsSeal.sealString(of: message) == expected)
        #expect(
            WorldlineSipsSeal.seal(of: message, secret: Self.vectorKey)
                == SipsTestSeal.hmac(expected, secret: Self.vectorKey))
        #expect(WorldlineSipsSeal.seal(of: message, secret: Self.vectorKey) != Self.vectorSeal)
    }

    @Test func testClientReproducesBothVariants() {
        var message: [String: Any] = [
            "amount": 2, "automaticResponseUrl": "http://test.com", "currencyCode": "978",
            "interfaceVersion": "IR_WS_2.19", "normalReturnUrl": "http://localhost/return.php",
            "orderChannel": "INTERNET", "templateName": "custom", "transactionReference": "test", "keyVersion": 1,
        ]
        #expect(SipsTestSeal.sealString(message) == Self.vectorString)
        #expect(SipsTestSeal.seal(message, secret: Self.vectorKey) == Self.vectorSeal)
        message["paymentMeanBrandList"] = ["VISA", "MASTERCARD"]
        #expect(SipsTestSeal.sealString(message).contains("INTERNETVISAMASTERCARDcustomtest"))
    }

    @Test func nestedObjectsAreSortedAndScalarsTakenAsWritten() throws {
        let text = #"{"b":{"z":"1","a":true},"a":[{"y":2,"x":"3"},"4",null],"c":1.50,"seal":"x","d":null}"#
        let message = try #require(SipsJSON.parse(Array(text.utf8)))
        #expect(WorldlineSipsSeal.sealString(of: message) == "32" + "4" + "true1" + "1.50")
    }

    @Test func automaticResponseSealsFollowTheConfiguredAlgorithm() {
        // Reference values from `sha256sum` and `openssl dgst -sha256 -hmac k`.
        let data = "amount=1000|currencyCode=978"
        #expect(
            WorldlineSipsSeal.postSeal(data: data, secret: "k", algorithm: .hmacSHA256)
                == "57c900023da07b5f0b567c0606fe271d99842f965cbd8df3d5fe0f64d2f306f4")
        #expect(
            WorldlineSipsSeal.postSeal(data: data, secret: "k", algorithm: .sha256)
                == "5933376ce1dde623dd4e42fd2af0c5578da3b1af6304fa01e13b2857140823d2")
    }

    @Test func parserKeepsLiteralsAndRejectsMalformedText() throws {
        let value = try #require(SipsJSON.parse(Array(#" {"n":-12.5e3,"s":"a\"\u00e9\ud83d\ude00","i":7} "#.utf8)))
        let members = try #require(value.members)
        #expect(members["n"] == .number("-12.5e3"))
        #expect(members["s"] == .string("a\"é😀"))
        #expect(members["i"]?.integerValue == 7)
        #expect(SipsJSON.parse(Array(value.text.utf8)) == value)
        for bad in ["{", #"{"a":}"#, "[1,]", "01", #"{"a":1} x"#, #""\x""#, "tru"] {
            #expect(SipsJSON.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
