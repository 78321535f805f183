/// ISO 4217 currencies Switchyard accepts, with their minor-unit exponents.
public struct Currency: Sendable, Hashable, Codable {
    /// Upper-case ISO 4217 code.
    public let code: String
    /// Number of minor-unit digits (2 for USD, 0 for JPY, 3 for KWD).
    public let exponent: Int

    /// Looks up a currency by code (case-sensitive: codes are upper case).
    public static func named(_ code: String) -> Currency? {
        guard let exponent = exponents[code] else { return nil }
        return Currency(code: code, exponent: exponent)
    }

    /// The largest amount, in minor units, Switchyard accepts in any currency.
    public static let maximumAmount: Int64 = 999_999_999_999

    private static let exponents: [String: Int] = {
        var table: [String: Int] = [:]
        let twoDigit =
            "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWL"
        let zeroDigit = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF"
        let threeDigit = "BHD IQD JOD KWD LYD OMR TND"
        for code in twoDigit.split(separator: " ") { table[String(code)] = 2 }
        for code in zeroDigit.split(separator: " ") { table[String(code)] = 0 }
        for code in threeDigit.split(separator: " ") { table[String(code)] = 3 }
        return table
    }()
}
