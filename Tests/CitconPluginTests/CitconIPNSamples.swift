import Foundation

/// IPN bodies signed as Citcon signs them; the signs were computed outside Swift with `sha256sum`.
enum CitconIPNSamples {
    static let secret = "ipn_SECRET_0002"
    static let chargeFields =
        "reference,id,transaction_type,amount,currency,status,time_created,time_completed,payment_method,"
        + "amount_captured,amount_refunded"
    /// Signed with `printf '%s' 'amount=1250&amount_captured=1250&amount_refunded=0&currency=USD&fields=<chargeFields>
    /// &id=2025110912345678901234&payment_method=alipay&reference=att_01 x+y&status=captured&time_completed=
    /// &time_created=1762681312&transaction_type=charge&secret=ipn_SECRET_0002' | sha256sum` (one line).
    static let chargeValues: [String: String] = [
        "id": "2025110912345678901234", "transaction_type": "charge", "reference": "att_01 x+y", "amount": "1250",
        "currency": "USD", "status": "captured", "time_created": "1762681312", "time_completed": "",
        "payment_method": "alipay", "amount_captured": "1250", "amount_refunded": "0", "fields": chargeFields,
    ]
    static let chargeSign = "b52626f8b5e24e9a5f8c5e8e7932de743dd91891d7d5834721eaf451816739c6"

    static var chargeForm: String {
        "id=2025110912345678901234&transaction_type=charge&reference=att_01+x%2By&amount=1250&currency=USD"
            + "&status=captured&time_created=1762681312&time_completed=&payment_method=alipay&amount_captured=1250"
            + "&amount_refunded=0&fields=" + chargeFields.replacingOccurrences(of: ",", with: "%2C")
            + "&sign=" + chargeSign
    }

    static var chargeJSON: String {
        #"{"id":"2025110912345678901234","transaction_type":"charge","reference":"att_01 x+y","amount":1250,"#
            + #""currency":"USD","status":"captured","time_created":1762681312,"time_completed":null,"#
            + #""payment_method":"alipay","amount_captured":1250,"amount_refunded":0,"#
            + #""fields":"\#(chargeFields)","sign":"\#(chargeSign)"}"#
    }

    /// Signed with `printf '%s' 'amount=500&amount_refunded=500&currency=USD&fields=id,transaction_type,reference,
    /// amount,amount_refunded,currency,status&id=9001&reference=rf_1&status=success&transaction_type=refund
    /// &secret=ipn_SECRET_0002' | sha256sum` (one line).
    static let refundSign = "fd45763d42ac097a09ce3c59476e2185943ecce00cfc6cd1ec5558c2f7e45828"
    static var refundForm: String {
        "id=9001&transaction_type=refund&reference=rf_1&amount=500&amount_refunded=500&currency=USD&status=success"
            + "&fields=id,transaction_type,reference,amount,amount_refunded,currency,status&sign=" + refundSign
    }
}
