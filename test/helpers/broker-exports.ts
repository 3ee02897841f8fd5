// Positions files shaped like the exports brokers and banks give, as they come: title lines, quoted
// fields, $ amounts, grouped thousands, total and note rows, `;` with decimal commas, CP1252 from
// Excel on Windows, UTF-16 from Excel's "Unicode text". Their symbols are the sandbox's, so that a
// test can value them and work the totals out itself. Each says what a reader must make of it.

/** Charles Schwab's positions export: a title and a blank line before the header, every field quoted, $ amounts, a cash row and an account total. */
export const SCHWAB = [
  '"Positions for account Individual ...1234 as of 02:30 PM ET, 2025/01/06"',
  '',
  '"Symbol","Description","Qty (Quantity)","Price","Mkt Val (Market Value)","Cost Basis","Gain $ (Gain/Loss $)","Security Type"',
  '"AAPL","APPLE INC","100","$227.12","$22,712.00","$15,025.00","$7,687.00","Equity"',
  '"MSFT","MICROSOFT CORP","1,250","$415.10","$518,875.00","$400,000.00","$118,875.00","Equity"',
  '"SPY","SPDR S&P 500","(20)","$554.20","-$11,084.00","--","--","ETFs & Closed End Funds"',
  '"Cash & Cash Investments","--","--","--","$1,234.56","--","--","Cash and Money Market"',
  '"Account Total","--","--","--","$531,737.56","$415,025.00","--","--"',
  '',
].join('\r\n');
/** What SCHWAB holds: quantities as numbers; no currency column (USD, by --currency). */
export const SCHWAB_POSITIONS = [['AAPL', '100'], ['MSFT', '1250'], ['SPY', '-20']] as const;
/** What `mkt value` says on stderr of SCHWAB read as it comes: the lines skipped, the columns ignored (how to map Cost Basis), the rows skipped. */
export const SCHWAB_WARNINGS = [
  'warning: skipped 2 lines before the header on line 3',
  'warning: ignored columns: Description, Price, Mkt Val (Market Value), Cost Basis, Gain $ (Gain/Loss $), Security Type; "Cost Basis" may be a cost per unit or the lot\'s total, which mkt never guesses: --columns \'cost=Cost Basis\' reads it as the cost per unit, --columns \'cost_total=Cost Basis\' as the lot\'s total cost',
  'warning: skipped 2 rows with no quantity that are totals or notes: line 7 (Cash & Cash Investments), line 8 (Account Total)',
  '',
].join('\n');

/**
 * Fidelity's: a trailing comma on each row, $ in its "Cost Basis Total" (read as cost_total unless
 * left out), a "Pending Activity" row, an empty row and the disclaimers at the foot.
 */
export const FIDELITY = [
  'Account Number,Account Name,Symbol,Description,Quantity,Last Price,Current Value,Total Gain/Loss Dollar,Cost Basis Total,Average Cost Basis,Type',
  'Z12345678,Individual,AAPL,APPLE INC,10,$227.12,$2271.20,+$768.70,$1502.50,$150.25,Cash,',
  'Z12345678,Individual,KO,COCA COLA CO,50,$69.85,$3492.50,-$257.50,$3750.00,$75.00,Cash,',
  'Z12345678,Individual,Pending Activity,,,,$-120.00,,,,,',
  ',,,,,,,,,,,',
  '"The data and information in this spreadsheet is provided to you solely for your use and is not for distribution."',
  '"Date downloaded Jan-06-2025 9:30 a.m ET"',
  '',
].join('\n');
export const FIDELITY_POSITIONS = [['AAPL', '10'], ['KO', '50']] as const;

/** Interactive Brokers' Flex Query: its own names for the currency (CurrencyPrimary) and the costs (CostBasisPrice per unit, CostBasisMoney per lot). */
export const IBKR_FLEX = [
  '"ClientAccountID","CurrencyPrimary","AssetClass","Symbol","Description","Quantity","MarkPrice","PositionValue","CostBasisPrice","CostBasisMoney"',
  '"U1234567","USD","STK","AAPL","APPLE INC","100","227.12","22712","150.25","15025"',
  '"U1234567","EUR","STK","SAP.DE","SAP SE","20","231.40","4628","180.5","3610"',
  '"U1234567","CAD","STK","RY.TO","ROYAL BANK OF CANADA","-50","165.30","-8265","160","-8000"',
  '',
].join('\n');

/** A European bank's depot: `;`, an account line, an "as of" line and an empty row before the header, decimal commas and grouping points, a "Summe" row. */
export const EURO_BANK = [
  'Depot 12345678;;;;;',
  'Stand: 06.01.2025 15:30;;;;;',
  ';;;;;',
  'Symbol;Name;Quantity;Currency;Unit Cost;Market Value',
  'SAP.DE;SAP SE;1.250;EUR;180,50;289.250,00',
  'SAP.DE;SAP SE;-5;EUR;240,125;-1.157,00',
  'EUR;Cash;2.500,75;EUR;;2.500,75',
  'Summe;;;;;290.593,75',
  '',
].join('\n');
/** EURO_BANK read with decimal commas. */
export const EURO_BANK_POSITIONS = [
  { symbol: 'SAP.DE', quantity: '1250', currency: 'EUR', cost: '180.50' },
  { symbol: 'SAP.DE', quantity: '-5', currency: 'EUR', cost: '240.125' },
  { symbol: 'EUR', quantity: '2500.75', currency: 'EUR' },
] as const;

/** A German bank's export from Excel on Windows: CP1252 (ü, ä and € one byte each: € is 0x80), `;`, its own column names. */
export const GERMAN_EXCEL_CP1252 = Buffer.from([
  'Kürzel;Bezeichnung;Stück;Währung;Einstandskurs;Kurswert (\x80)',
  'SAP.DE;SAP SE;20;EUR;180,50;4.628,00',
  '7203.T;Toyota;100;JPY;2.800;285.000',
  '',
].join('\r\n'), 'latin1');
export const GERMAN_COLUMNS = 'symbol=Kürzel,quantity=Stück,currency=Währung,cost=Einstandskurs';

/** A British export from Excel on Windows: CP1252, a £ (0xA3) in a header mkt ignores. */
export const UK_EXCEL_CP1252 = Buffer.from('Ticker,Shares,Currency,Unit Cost,Value (\u00a3)\r\nVOD.L,1000,GBX,70.25,725.00\r\nAAPL,10,USD,150,2271.20\r\n', 'latin1');

/** Excel's "Unicode text": UTF-16 LE with a byte-order mark, tab-separated. */
export const EXCEL_UTF16LE = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Symbol\tQuantity\tCurrency\tCost\r\nSAP.DE\t20\tEUR\t200\r\n7203.T\t100\tJPY\t2800\r\n', 'utf16le')]);

/** The README's columns and two of a spreadsheet's own. */
export const EXTRA_COLUMNS = 'symbol,quantity,currency,cost,account,notes\nAAPL,10,USD,200.5,IRA,long term\nKO,5,USD,,Taxable,\n';
