/**
 * The reference agent's names for keys Ferry spells otherwise: `[http_api]
 * rum_origin_ip_header` and `rum_app_id_white_list` land in `[rum]`; giving both names is an
 * error; the ENV_* names are the reference's too.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { checkConfigText, loadConfig } from '../../../src/config/load.js'

function withFile(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-conf-'))
  const file = path.join(dir, 'ferry.conf')
  fs.writeFileSync(file, text)
  return file
}

test("the reference's [http_api] RUM keys are accepted as [rum] keys", () => {
  const file = withFile(
    '[http_api]\nlisten = "127.0.0.1:9600"\nrum_origin_ip_header = "X-Client-IP"\nrum_app_id_white_list = ["app-1", "app-2"]\n',
  )
  const { config } = loadConfig(file, {})
  assert.equal(config.rum.origin_ip_header, 'X-Client-IP')
  assert.deepEqual([...config.rum.app_id_white_list], ['app-1', 'app-2'])
  assert.equal(config.http_api.listen, '127.0.0.1:9600')
})

test('both names of one key are refused; a bad value is reported', () => {
  const both = '[http_api]\nrum_origin_ip_header = "A"\n[rum]\norigin_ip_header = "B"\n'
  assert.deepEqual(checkConfigText(both, 'f.conf'), [
    'f.conf:http_api.rum_origin_ip_header: also set as rum.origin_ip_header; keep one of the two',
  ])
  assert.deepEqual(checkConfigText('[http_api]\nrum_app_id_white_list = 3\n', 'f.conf'), [
    'f.conf:rum.app_id_white_list: expected a list of strings',
  ])
})

test("the reference's ENV_* names set the same keys", () => {
  const { config } = loadConfig('/nonexistent/ferry.conf', {
    ENV_RUM_ORIGIN_IP_HEADER: 'X-Client-IP',
    ENV_RUM_APP_ID_WHITE_LIST: 'a,b',
  })
  assert.equal(config.rum.origin_ip_header, 'X-Client-IP')
  assert.deepEqual([...config.rum.app_id_white_list], ['a', 'b'])
})
