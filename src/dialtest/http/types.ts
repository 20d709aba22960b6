/** An HTTP task as the request carries it (reference HTTPTask, HTTPAdvanceOption). */
import type { StringOpt } from '../types.js'

export interface HttpFile {
  name?: string
  content?: string
  type?: string
  size?: number
  encoding?: string
  original_file_name?: string
}

export interface HttpBody {
  body_type?: string
  body?: string
  form?: Record<string, string>
  files?: HttpFile[]
}

export interface HttpAdvance {
  request_options?: {
    follow_redirect?: boolean
    headers?: Record<string, string>
    cookies?: string
    auth?: { username?: string; password?: string }
  }
  request_body?: HttpBody
  certificate?: {
    ignore_server_certificate_error?: boolean
    private_key?: string
    certificate?: string
    ca?: string
  }
  proxy?: { url?: string; headers?: Record<string, string> }
  secret?: { not_save?: boolean }
  request_timeout?: string
}

export interface HttpCheck {
  status_code?: StringOpt[]
  header?: Record<string, StringOpt[]>
  body?: StringOpt[]
  response_time?: string
}

export interface HttpTask {
  name?: string
  url?: string
  method?: string
  post_script?: string
  success_when?: HttpCheck[]
  success_when_logic?: string
  tags?: Record<string, string>
  advance_options?: HttpAdvance
}
