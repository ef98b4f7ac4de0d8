/**
 * The sandbox's **published test RSA-2048 key pair** for the random-key method (GTK "90", S220
 * §5.4.2): the public half is what the sandbox's EMV tables offer (`keys.card_data`
 * `random_key`, key id TEST_RSA_KEY_ID), the private half opens the random key (PP_ENCKRAND) a
 * PINPAD sends back. Generated once with `openssl genpkey -algorithm RSA -pkeyopt
 * rsa_keygen_bits:2048` for Pinbridge's tests and training; it is public, as the ANSI test BDK
 * is, and protects nothing: no provider may ever offer it (docs/terminal-channel.md).
 */

/** The name the sandbox's tables give this key pair, and that authorizations sealed under it carry. */
export const TEST_RSA_KEY_ID = 'pinbridge-sandbox-test-rsa-1';

/** PKCS #8, PEM. */
export const TEST_RSA_PRIVATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDY+dnY+6t0GVFN
Ch0w8DQyjDr/Uo1KMdjaua+PXtzNenP/25Z0howBl+ET8VAIgQ9wPCJ8xBoqX4Tr
D325GhsCORsDXMiaeD4y6UjxdfAwNdt8P5DIlm5LAb4p0WedP4uBQteNkj/A2jm3
OkMC9MEBYKSme7glc8foxmN/aYvjxSClahPPH45AuD8+ewM/pSiRTtkrfs1x3VeK
vj+6hiwau2/3GHz/pourCVtXNK5wpDYiNwOplmyXT10e7nbEKFjLekCp66dVAcu0
Zidl3d/XeePVggFUpguoyZapECdACKdEge7+G/tXa1cLTRI/TNPJ55PkT2GkRwYG
ensx0jJ1AgMBAAECggEADHAIE5bbnXBdF3Yyta0zRMmCkUO9aykf1evqeyS0Mggo
sZw4C+5xhJ7c7Vx6Gr6xMJ0V2gKQwGiQ0TumWI+9SBuXZ5IwQqCNajQytPqufcj8
j6sCJOlwoZaUPMfu8VXk7JA1FH2zb13jDJSHpln63VYZohx58hWoujhzGCjn9rKp
UMpX29I8agSA/PtBFDRLAM2eC/4YcwkPC84sMunbuGjaDf82q2s2R0RuOcJjxVPn
lrhF7Nigny3/Fi3z/tEZxdH57kuLyaV3U9+aVVeNafQfd84v7Z+L/eEt3ww4nsBG
lhD6Kjuw+TCBbjKZLgrjV8FZ/sfH1Ee21x7cSOpaKQKBgQD14aQjoDx+E/mnA8t+
2G6tibQ8qs1QSZL5faPZsbBZ+P4gEpaY3S0Fennv1jNMnV74GVSRjxXsPFOi3Itr
wzWqVkDcXTyxEhuOeMFo/eubE0FCj89MxOdN3X4rUFC6sPfSkTIlGJupTXjisibt
f2tKYbYfwzzOj+AloMK6MrN7KQKBgQDh57D5SUTvnmWzTOomqCmsI1A1Uz+kKTFe
uY+Jr1u29Umj2zi1zgSthvg51L8cKtLVj7viJCQIOwy+1HwkYtAxyzjUXGRoIkZx
ee6QT3TVBuXKC1bUznks8SdsFK7AXF+q40feQdie+0fQT8+xtn1SXvalM2+D9vGT
Uhh9omrybQKBgQCKM31ymMnng4q7GSLz9Oqgl9m6j7Y+/luh58CEx577szwDAu+q
lAaOIb0P1TGYSovqnzItbmNAGNhZneSveVVcnIZwVeebDzZ16eGsBay7ySLRKsu1
tqbb2TblWYtGo9lnfTzWJPK5QlZD9SZ0Lz463JjlWXOAFtZB0A4jYgQHoQKBgQCS
xcoB7UzQsoU5HXv0acXJhZgTTWdH7UuaU82ik0BveqbBwyjxVk1LwSl9yW/xiRE6
mAxmPTz77AG36q5NpbXG5FakAvNphPtntuT89eLelYCu6PcdhJjOTlBitH1llZ7C
lLCZAwcPJAvgmDpFKF/8KJ7vbp/BiawjH2+yENiTcQKBgHTj6qOiVqGs9fmfz+qp
inxDCeX+I6D2kmL7m4nNAdTUIJyJswBZpb+BXn797aF8xerdqrpfCI3RsQVyBW7j
NsfONrM2ahs2r41weAwh1vTnyFj12GQa8dvwfa1abHvmOM5D1JVRhE20xWH9UGJ4
LpdjGg/GdnIHCPTnxj2jfHQ1
-----END PRIVATE KEY-----
`;
